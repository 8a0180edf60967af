/**
 * `npm run bench:crash -- [events] [killAfter]` (default 1000 334): the operator's crash-recovery run against
 * `npm start` with DATA_DIR, printed as JSON — recovery time from the restart to a quiet engine included. FAULTS and
 * FAULTS_SEED in the environment apply to both starts.
 *
 * `npm run bench:crash -- --journey [contacts] [killAfter]` (default 1000 400): the same with journeys — contacts
 * enter the cart journey, half check out around their run's timeout, the runtime is killed at 40 % of the carts
 * (scripts/chaos/journey-crash-run.ts).
 */
import { crashRun } from './crash-run.js';
import { journeyCrashRun } from './journey-crash-run.js';

const args = process.argv.slice(2);
const journey = args.includes('--journey');
const [count = '1000', killAfter = journey ? '400' : '334'] = args.filter((a) => a !== '--journey');
const common = {
  ...(killAfter === 'none' ? {} : { killAfter: Number(killAfter) }),
  ...(process.env['FAULTS']
    ? { faults: process.env['FAULTS'], faultsSeed: Number(process.env['FAULTS_SEED'] ?? 1) }
    : {}),
  log: (line: string) => console.error(line),
  keepData: process.env['CRASH_KEEP_DATA'] === '1',
};
const report = journey
  ? await journeyCrashRun({ contacts: Number(count), ...common })
  : await crashRun({ events: Number(count), ...common });
console.log(JSON.stringify(report, null, 2));
process.exit(report.clean ? 0 : 1);
