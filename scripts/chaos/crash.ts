/**
 * `npm run bench:crash -- [events] [killAfter]` (default 1000 334): the operator's crash-recovery run against
 * `npm start` with DATA_DIR, printed as JSON — recovery time from the restart to a quiet engine included. FAULTS and
 * FAULTS_SEED in the environment apply to both starts.
 */
import { crashRun } from './crash-run.js';

const [events = '1000', killAfter = '334'] = process.argv.slice(2);
const report = await crashRun({
  events: Number(events),
  ...(killAfter === 'none' ? {} : { killAfter: Number(killAfter) }),
  ...(process.env['FAULTS']
    ? { faults: process.env['FAULTS'], faultsSeed: Number(process.env['FAULTS_SEED'] ?? 1) }
    : {}),
  log: (line) => console.error(line),
  keepData: process.env['CRASH_KEEP_DATA'] === '1',
});
console.log(JSON.stringify(report, null, 2));
process.exit(report.clean ? 0 : 1);
