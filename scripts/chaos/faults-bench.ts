/**
 * `npm run bench:faults -- [events]` (default 300): the engine end to end — async `trial_ending` events over HTTP
 * against `npm start` (DATA_DIR, its own process) until every execution is finished — once with no fault and once
 * under FAULTS, and writes both into docs/benchmarks.md between its faults markers. The sweeps and the
 * lease are compressed in both runs alike, as the local queue compresses SQS's timings.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crashRun, type CrashRunReport } from './crash-run.js';

const EVENTS = Number(process.argv[2] ?? 300);
const FAULTS = 'ses:reset-after-send:0.05,ses:error-5xx-before-send:0.05,dynamo:throttle:0.05,sqs:send-fail:0.02';
const COMPRESSED = { EXECUTION_LEASE_SECONDS: '10', LOCAL_SWEEP_EVERY_SECONDS: '5', OUTBOX_SWEEP_AFTER_SECONDS: '5' };
const START = '<!-- faults:begin -->';
const END = '<!-- faults:end -->';

const row = (name: string, r: CrashRunReport) =>
  `| ${name} | ${r.accepted} / ${r.events} | ${r.executions.byStatus['3'] ?? 0} | ${r.emails} | ${r.duplicateEmails} | ${r.unprocessed} | ` +
  `${(r.recoveryMs / 1000).toFixed(1)} s | ${((r.executions.byStatus['3'] ?? 0) / (r.recoveryMs / 1000)).toFixed(1)} | ${r.clean ? 'yes' : '**no**'} |`;

const log = (line: string) => console.error(line);
console.error(`== ${EVENTS} events, no fault ==`);
const off = await crashRun({ events: EVENTS, env: COMPRESSED, log });
console.error(`== ${EVENTS} events, FAULTS=${FAULTS} FAULTS_SEED=18 ==`);
const on = await crashRun({ events: EVENTS, faults: FAULTS, faultsSeed: 18, env: COMPRESSED, log });

const table = [
  '| run | events accepted | executions completed | recipients mailed | recipients mailed twice | events lost | first request → all finished | e-mails/s | clean |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  row('no fault', off),
  row(`\`${FAULTS}\``, on),
].join('\n');
const section =
  `${START}\n${table}\n\nMeasured by \`npm run bench:faults -- ${EVENTS}\` on ${new Date().toISOString().slice(0, 10)} ` +
  `(Node ${process.version}; \`FAULTS_SEED=18\`; lease 10 s, sweeps every 5 s in both runs).\n${END}`;
const docPath = join(import.meta.dirname, '..', '..', 'docs', 'benchmarks.md');
const doc = readFileSync(docPath, 'utf8');
writeFileSync(
  docPath,
  doc.includes(START)
    ? doc.slice(0, doc.indexOf(START)) + section + doc.slice(doc.indexOf(END) + END.length)
    : `${doc.trimEnd()}\n\n## Engine under faults\n\n${section}\n`,
);
console.log(table);
process.exit(off.clean && on.clean ? 0 : 1);
