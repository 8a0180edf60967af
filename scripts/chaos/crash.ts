/**
 * `npm run bench:crash -- [events] [killAfter]` (default 1000 334): the operator's crash-recovery run against
 * `npm start` with DATA_DIR, printed as JSON — recovery time from the restart to a quiet engine included. FAULTS and
 * FAULTS_SEED in the environment apply to both starts.
 *
 * `npm run bench:crash -- --journey [contacts] [killAfter]` (default 1000 400): the same with journeys — contacts
 * enter the cart journey at `--rate` carts a second (default 10); half check out as soon as their run waits, a tenth at
 * its timeout ± 2 s, the rest never; the runtime is killed once `killAfter` carts were accepted and runs have left the
 * wait both ways (scripts/chaos/journey-crash-run.ts). `--minute-ms N` runs the journey's 1-minute timeout on the
 * local runtime's journey clock (LOCAL_JOURNEY_MINUTE_MS; default 20000: the timeout lasts 20 s), `--minute-ms 60000`
 * a real minute.
 *
 * `npm run bench:crash -- --broadcast [contacts] [killAt]` (default 20000 0.4): a broadcast `now` to all subscribed
 * contacts, paced under SES_MAX_SEND_RATE 50, the runtime killed once `killAt` of them (a share) are in the SES journal
 * and started again; every recipient mailed once, none stranded, the rate after the restart within the pace
 * (scripts/chaos/broadcast-crash-run.ts). `none` for killAt: no crash; `snapshot`: the kill as soon as the head is
 * seen snapshotting.
 */
import { parseArgs } from 'node:util';
import { broadcastCrashRun } from './broadcast-crash-run.js';
import { crashRun } from './crash-run.js';
import { journeyCrashRun } from './journey-crash-run.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    journey: { type: 'boolean', default: false },
    broadcast: { type: 'boolean', default: false },
    rate: { type: 'string', default: '10' },
    'minute-ms': { type: 'string', default: '20000' },
  },
});
const journey = values.journey;
const broadcast = values.broadcast;
const [count = broadcast ? '20000' : '1000', killAfter = broadcast ? '0.4' : journey ? '400' : '334'] = positionals;
const common = {
  ...(killAfter === 'none' ? {} : { killAfter: Number(killAfter) }),
  ...(process.env['FAULTS']
    ? { faults: process.env['FAULTS'], faultsSeed: Number(process.env['FAULTS_SEED'] ?? 1) }
    : {}),
  log: (line: string) => console.error(`${new Date().toISOString().slice(11, 19)} ${line}`),
  keepData: process.env['CRASH_KEEP_DATA'] === '1',
};
const report = broadcast
  ? await broadcastCrashRun({
      contacts: Number(count),
      killAtShare: killAfter === 'none' ? false : killAfter === 'snapshot' ? 'snapshot' : Number(killAfter),
      ...(common.faults ? { faults: common.faults, faultsSeed: common.faultsSeed } : {}),
      log: common.log,
      keepData: common.keepData,
    })
  : journey
    ? await journeyCrashRun({
        contacts: Number(count),
        cartsPerSecond: Number(values.rate),
        minuteMs: Number(values['minute-ms']),
        ...common,
      })
    : await crashRun({ events: Number(count), ...common });
console.log(JSON.stringify(report, null, 2));
process.exit(report.clean ? 0 : 1);
