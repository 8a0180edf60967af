import type { CpuSpent } from './cpu-usage.js';
import type { EngineRun, StepFigures } from './engine.js';

/** The engine's request budgets against a measured engine run; each names what it counted. */
export interface Budget {
  name: string;
  measured: string;
  limit: string;
  pass: boolean;
  /** On a failure: the requests per unit by command, so the excess can be read off. */
  detail?: string;
}

const WRITE_COMMANDS = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
  'BatchWriteItemCommand',
]);

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const per = (n: number, units: number) => (units > 0 ? n / units : NaN);
const commandsPer = (step: StepFigures, units = step.units) =>
  Object.entries(step.dynamo.byCommand)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([command, n]) => `${command.replace(/Command$/, '')} ${fmt(per(n, units), 2)}`)
    .join(', ') || '—';

export function engineBudgets(run: EngineRun): Budget[] {
  const { ingest, processing, execution } = run;
  const writes = Object.entries(ingest.dynamo.byCommand).reduce((s, [c, n]) => s + (WRITE_COMMANDS.has(c) ? n : 0), 0);
  // The engine's ingest budget is the event's own writes; the rate limit's window count rides on every API request.
  const ingestWrites = per(writes - run.rateLimitWrites, run.events);
  const rateWrites = per(run.rateLimitWrites, run.events);
  const ingestSqs = per(ingest.calls.sqs, run.events);
  const p = processing.queue!;
  const x = execution.queue!;
  const n = run.notifications.queue!;
  return [
    {
      name: "ingest an async event: the event's DynamoDB writes + SQS sends, per event",
      measured: `${fmt(ingestWrites, 2)} + ${fmt(ingestSqs, 2)}`,
      limit: '≤ 1 + 1',
      pass: ingestWrites <= 1 && ingestSqs <= 1,
      detail: `${commandsPer(ingest, run.events)}; of which the rate limit's window count (every API request, apart from the budget): UpdateItem ${fmt(rateWrites, 2)}`,
    },
    {
      name: 'process an event that starts one workflow: DynamoDB requests, most in one run of process-events',
      measured: `${p.maxPerDelivery.dynamo} (per event, all runs: mean ${fmt(per(processing.dynamo.total, processing.units), 2)}, max ${maxOf(p.histogram)})`,
      limit: '≤ 5',
      pass: processing.units === run.events && p.maxPerDelivery.dynamo <= 5,
      detail: `costliest run: ${commandsText(p.maxPerDelivery.worst)}`,
    },
    {
      name: 'execute one send: DynamoDB requests + SES calls, most in one run of execute-workflow',
      measured:
        `${x.maxPerDelivery.dynamo} + ${x.maxPerDelivery.ses} (per e-mail, all runs: mean ${fmt(per(execution.dynamo.total, execution.units), 2)}` +
        ` + ${fmt(per(execution.calls.ses, run.mails), 2)}, max ${maxOf(x.histogram)})`,
      // 5 since quotas: the quota counter is raised by its own UpdateItem, outside the claim's transaction.
      limit: '≤ 5 + 1',
      pass: execution.units === run.mails && x.maxPerDelivery.dynamo <= 5 && x.maxPerDelivery.ses <= 1,
      detail: `costliest run: ${commandsText(x.maxPerDelivery.worst)}`,
    },
    {
      name: 'record one SES status notification of a known message: DynamoDB requests, most in one run of ses-status',
      measured: `${n.maxPerDelivery.dynamo} (per notification, all runs: mean ${fmt(per(run.notifications.dynamo.total, run.notifications.units), 2)}, max ${maxOf(n.histogram)})`,
      limit: '≤ 3',
      // Every e-mail yields a Send and a Delivery notification.
      pass: run.notifications.units === 2 * run.mails && n.maxPerDelivery.dynamo <= 3,
      detail: `${fmt(run.notifications.units)} notifications for ${fmt(run.mails)} e-mails; costliest run: ${commandsText(n.maxPerDelivery.worst)}`,
    },
  ];
}

const maxOf = (histogram: Record<string, number>) => Math.max(0, ...Object.keys(histogram).map(Number));
const commandsText = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([c, n]) => `${c.replace(/Command$/, '')} ${n}`)
    .join(', ');

/** The path step by step: requests per event (ingest, processing) and per e-mail (execution, whole path). */
export function engineRows(run: EngineRun): string[][] {
  const { ingest, processing, execution, streams } = run;
  const row = (step: string, unit: string, f: StepFigures, units: number, spread = true) => [
    step,
    unit,
    fmt(per(f.dynamo.total, units), 2) + (spread && f.queue ? ` (${histogramText(f.queue.histogram)})` : ''),
    commandsPer(f, units),
    fmt(per(f.calls.sqs, units), 2),
    fmt(per(f.calls.schedules, units), 2),
    fmt(per(f.calls.ses, units), 2),
  ];
  const whole: StepFigures = {
    units: run.mails,
    dynamo: {
      total: ingest.dynamo.total + processing.dynamo.total + execution.dynamo.total + streams.dynamo.total,
      byCommand: addCounts(ingest, processing, execution, streams),
    },
    calls: {
      sqs: ingest.calls.sqs + processing.calls.sqs + execution.calls.sqs + streams.calls.sqs,
      schedules:
        ingest.calls.schedules + processing.calls.schedules + execution.calls.schedules + streams.calls.schedules,
      ses: ingest.calls.ses + processing.calls.ses + execution.calls.ses + streams.calls.ses,
    },
  };
  return [
    row('ingest: POST /client/events (async, 202)', 'event', ingest, run.events),
    row('processing: functions/queue/process-events', 'event', processing, processing.units),
    row('execution: functions/queue/execute-workflow', 'e-mail', execution, execution.units),
    row(
      `stream functions: webhook-facts, day-counters (${fmt(streams.units)} invocations)`,
      'e-mail',
      streams,
      run.mails,
      false,
    ),
    row('whole path', 'e-mail', whole, run.mails, false),
    row(
      'status: functions/queue/ses-status (Send, Delivery)',
      'notification',
      run.notifications,
      run.notifications.units,
    ),
  ];
}

export const ENGINE_HEADER = [
  'step',
  'per',
  'DynamoDB requests (events/e-mails with n requests)',
  'DynamoDB by command',
  'SQS',
  'Scheduler',
  'SES',
];

function streamReadsText(run: EngineRun): string {
  const total = Object.values(run.streamReads).reduce((a, b) => a + b, 0);
  const parts = Object.entries(run.streamReads)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([c, n]) => `${c.replace(/Command$/, '')} ${fmt(n)}`)
    .join(', ');
  return `${fmt(total)} in the run (${parts || 'none'}), ${fmt((total / run.endToEndMs) * 1000, 1)}/s`;
}

function histogramText(histogram: Record<string, number>): string {
  return Object.entries(histogram)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([n, count]) => `${fmt(count)} × ${n}`)
    .join(', ');
}

function addCounts(...steps: StepFigures[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const step of steps) for (const [c, n] of Object.entries(step.dynamo.byCommand)) out[c] = (out[c] ?? 0) + n;
  return out;
}

export function engineRates(run: EngineRun) {
  return {
    eventsPerSecond: (run.events / run.ingestMs) * 1000,
    mailsPerSecond: (run.mails / run.endToEndMs) * 1000,
  };
}

function sizingText(run: EngineRun): string {
  const names = { events: 'process-events', workflow: 'execute-workflow', 'ses-status': 'ses-status' } as const;
  return (Object.keys(names) as (keyof typeof names)[])
    .map((queue) => `${names[queue]} ${run.sizing[queue].batchSize} × ${run.sizing[queue].maxConcurrency}`)
    .join(', ')
    .concat(` (the sender's for SES_MAX_SEND_RATE ${run.sesMaxSendRate})`);
}

/** The engine against its floor: the floor's time over the engine's (1 = as fast as the emulator serves its requests). */
export const FLOOR_GOAL = 0.9;

export function engineFloorFigures(run: EngineRun) {
  if (!run.floor) return undefined;
  const { best } = run.floor;
  const p = run.processing.queue!;
  const x = run.execution.queue!;
  const n = run.notifications.queue!;
  return {
    floorMailsPerSecond: (run.mails / best.ms) * 1000,
    ratio: best.ms / run.endToEndMs,
    redeliveries: p.redeliveries + x.redeliveries + n.redeliveries,
    runs: run.floor.runs
      .map((r) => `${fmt(r.ms)} ms at ${r.concurrency}${r.failed > 0 ? ` (${fmt(r.failed)} refused)` : ''}`)
      .join(', '),
  };
}

function floorLines(run: EngineRun): { console: string; rows: string; goal: string } | undefined {
  const f = engineFloorFigures(run);
  if (!f || !run.floor) return undefined;
  const met = f.ratio >= FLOOR_GOAL && f.redeliveries === 0;
  return {
    console:
      `floor: ${fmt(run.floor.requests)} DynamoDB requests of ${fmt(run.floor.units)} units replayed in ${fmt(run.floor.best.ms)} ms ` +
      `(${f.runs}) → ${fmt(f.floorMailsPerSecond)} e-mails/s; engine at ${fmt(f.ratio, 2)}× its floor, ` +
      `${fmt(f.redeliveries)} redeliveries (goal ≥ ${FLOOR_GOAL}× and 0): ${met ? 'met' : 'NOT met'}`,
    rows:
      `| the engine's floor: the run's ${fmt(run.floor.requests)} DynamoDB requests (${fmt(run.floor.units)} deliveries and API requests) replayed straight at DynamoDB Local, by units in flight | ${f.runs}: **${fmt(f.floorMailsPerSecond)} e-mails/s** at best |
` +
      `| engine ÷ floor · redeliveries on the three queues (goal ≥ ${FLOOR_GOAL}× and 0) | **${fmt(f.ratio, 2)}×** · ${fmt(f.redeliveries)}: ${met ? 'met' : 'NOT met'} |`,
    goal: `The floor is measured in the same process and JVM right after the run, once the stream functions have taken
the run's changes (so the replay never shares the emulator with their backlog): every DynamoDB request the engine sent
between the first event and the last mail (captured on the container's client after marshalling, one per call before
the SDK's retries) is replayed as it was sent, conditions and all, at a copy of the table in a DynamoDB Local of its
own (same jar, keys, indexes and stream: a second table in the engine's DynamoDB Local answers ~5× slower, as the
emulator looks up its stream beside the engine's long one on every request). Before each replay the
${fmt(run.floor.seededItems)} items those requests touch that existed before the run are put back as a Scan taken
before the run's clock found them (and the rest deleted), so each condition meets what it met in the run; one replay
warms the JVM first. Each delivery's requests keep their order — one waits for those of its delivery that had ended
before it began — while the API's requests (no delivery scope) replay each on its own; deliveries run side by side,
${run.floor.runs.map((r) => r.concurrency).join(', ')} at once; the fastest is the floor. A request refused on the copy
(its condition met another order of the deliveries than the run's) is counted, not retried: that makes the floor
faster, never slower. No HTTP, queue, handler code, stream read or SES call is replayed, so the engine can come close
to its floor but not pass it.
`,
  };
}

/**
 * Where the CPU went, in the run and in the floor's best replay, per e-mail: this machine's cores are shared by the
 * runtime's Node.js process and DynamoDB Local's JVM, so the engine's rate can be no higher than the cores divided by
 * the CPU both spend on an e-mail, and `ceilingRatio` is that bound over the floor's rate.
 */
export function engineCpuFigures(run: EngineRun) {
  const f = engineFloorFigures(run);
  const floorCpu = run.floor?.best.cpu;
  if (!run.cpu || !f || !floorCpu || run.mails === 0) return undefined;
  const { cores } = run.cpu;
  const perMail = (seconds: number) => (seconds / run.mails) * 1000;
  // Per e-mail for each process, and the share of the cores both kept busy.
  const spent = (cpu: CpuSpent) => ({
    nodeMs: perMail(cpu.node),
    jvmMs: perMail(cpu.jvm),
    busy: (cpu.node + cpu.jvm) / (cpu.wallSeconds * cores),
  });
  const engine = spent(run.cpu);
  const floor = spent(floorCpu);
  const engineMs = engine.nodeMs + engine.jvmMs;
  const floorMs = floor.nodeMs + floor.jvmMs;
  // At the goal's rate every e-mail may take cores / rate seconds of CPU, all processes together.
  const allowedMs = (cores / (FLOOR_GOAL * f.floorMailsPerSecond)) * 1000;
  const ceilingRatio = ((cores / engineMs) * 1000) / f.floorMailsPerSecond;
  return { cores, engine, floor, engineMs, floorMs, allowedMs, ceilingRatio };
}

function cpuLines(run: EngineRun): { console: string; rows: string; text: string } | undefined {
  const c = engineCpuFigures(run);
  if (!c) return undefined;
  const pct = (n: number) => `${fmt(n * 100)} %`;
  const ms = (n: number) => `${fmt(n, 1)} ms`;
  const beyond = (n: number) => ms(Math.max(0, n));
  return {
    console:
      `CPU per e-mail: engine ${ms(c.engine.nodeMs)} Node + ${ms(c.engine.jvmMs)} JVM (${pct(c.engine.busy)} of ${c.cores} cores busy), ` +
      `floor ${ms(c.floor.nodeMs)} Node + ${ms(c.floor.jvmMs)} JVM (${pct(c.floor.busy)} busy); ${FLOOR_GOAL}× the floor allows ` +
      `${ms(c.allowedMs)} in all; at the engine's CPU cost the machine allows at most ${fmt(c.ceilingRatio, 2)}× its floor`,
    rows:
      `| CPU per e-mail in the run: the runtime's Node.js process · DynamoDB Local's JVM (share of the ${c.cores} cores busy) | ${ms(c.engine.nodeMs)} · ${ms(c.engine.jvmMs)} = **${ms(c.engineMs)}** (${pct(c.engine.busy)}) |
` +
      `| CPU per e-mail in the floor's best replay: Node.js sending the requests · the replay's JVM (share busy) | ${ms(c.floor.nodeMs)} · ${ms(c.floor.jvmMs)} = **${ms(c.floorMs)}** (${pct(c.floor.busy)}) |
` +
      `| CPU per e-mail ${FLOOR_GOAL}× the floor allows on ${c.cores} cores · the most engine ÷ floor the engine's CPU cost allows | ≤ ${ms(c.allowedMs)} · **${fmt(c.ceilingRatio, 2)}×** |`,
    text: `The engine's Node.js process and DynamoDB Local's JVM share this machine's ${c.cores} cores, so its rate can be no
higher than ${c.cores} cores ÷ the CPU both spend on an e-mail (read from the process's \`cpuUsage\` and the JVM's
\`/proc/<pid>/stat\`, first event to last mail, and around each replay). ${FLOOR_GOAL}× the floor's rate leaves
${ms(c.allowedMs)} of CPU per e-mail, all in; the requests alone, sent and served, took ${ms(c.floorMs)} in the
replay, so everything else the engine does on this machine — the HTTP API, handlers, queues, stream functions, the SES
emulator and the bench's client — would have to fit in ${beyond(c.allowedMs - c.floorMs)}, where it took
${beyond(c.engineMs - c.floorMs)}.
`,
  };
}

/** Console output: rates, the step table, one PASS/FAIL line per budget. */
export function printEngine(run: EngineRun): void {
  const { eventsPerSecond, mailsPerSecond } = engineRates(run);
  console.log(`ingest: ${fmt(run.events)} events in ${fmt(run.ingestMs)} ms → ${fmt(eventsPerSecond)} events/s`);
  console.log(`end to end: ${fmt(run.mails)} e-mails in ${fmt(run.endToEndMs)} ms → ${fmt(mailsPerSecond)} e-mails/s`);
  const rows = [ENGINE_HEADER, ...engineRows(run)];
  const widths = ENGINE_HEADER.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const [n, r] of rows.entries()) {
    console.log(r.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
    if (n === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
  const p = run.processing.queue!;
  const x = run.execution.queue!;
  console.log(
    `runs: process-events ${fmt(p.deliveries)} for ${fmt(run.processing.units)} events, execute-workflow ${fmt(x.deliveries)} for ` +
      `${fmt(run.execution.units)} e-mails (${fmt(x.extra.units)} run more than once, ${fmt(x.extra.sesRetries)} with SES called again); ` +
      `queue messages ${fmt(run.queueSends)}, dead letters ${fmt(run.deadLetters)}, executions completed ${fmt(run.completedExecutions)}`,
  );
  console.log(`stream poller's own reads of the stream: ${streamReadsText(run)}`);
  const floor = floorLines(run);
  if (floor) console.log(floor.console);
  const cpu = cpuLines(run);
  if (cpu) console.log(cpu.console);
  for (const b of engineBudgets(run)) {
    console.log(
      `${b.pass ? 'PASS' : 'FAIL'}  ${b.name}: ${b.measured} (budget ${b.limit})${b.pass ? '' : ` — ${b.detail}`}`,
    );
  }
}

/** The engine section of docs/benchmarks.md. */
export function engineMarkdown(run: EngineRun): string {
  const { eventsPerSecond, mailsPerSecond } = engineRates(run);
  const table = [ENGINE_HEADER, ENGINE_HEADER.map(() => '---'), ...engineRows(run)]
    .map((r) => `| ${r.join(' | ')} |`)
    .join('\n');
  const budgets = engineBudgets(run)
    .map((b) => `| ${b.name} | ${b.measured} | ${b.limit} | ${b.pass ? 'PASS' : `FAIL (${b.detail})`} |`)
    .join('\n');
  const p = run.processing.queue!;
  const x = run.execution.queue!;
  const floor = floorLines(run);
  const cpu = cpuLines(run);
  return `## Engine: ${fmt(run.events)} events to ${fmt(run.mails)} e-mails

A client on the ${run.plan} plan with ${fmt(run.events)} contacts (one bulk request, not measured) sends ${fmt(run.events)}
\`POST /client/events\` (\`type: ${run.eventType}\`, \`idempotency_key\`, async → 202) over HTTP,
${run.options.concurrency} requests in flight. Each event names an existing contact and starts exactly one workflow
(trial ending: immediate, not critical, so the contact's daily cap is checked and raised). The clock starts at the
first request; ingest ends with the last 202, end to end with the ${fmt(run.mails)}th mail seen in aws-ses-v2-local's
\`/store\` (polled every 100 ms); then the runtime waits for its queues to be idle. Processing and sending run while
events still arrive, all in one Node.js process on this machine with DynamoDB Local. A run of 100 events on another
client warms everything up first. The in-process queue polls each function as its event source mapping is sized on
AWS (functions/queue-sizing.ts; batch × batches in flight): ${sizingText(run)}.

| | |
|---|---|
| events ingested | ${fmt(run.events)} in ${fmt(run.ingestMs)} ms: **${fmt(eventsPerSecond)} events/s** |
| e-mails end to end | ${fmt(run.mails)} in ${fmt(run.endToEndMs)} ms: **${fmt(mailsPerSecond)} e-mails/s** |
| executions completed (\`GET /client/executions?status=3\`) | ${fmt(run.completedExecutions)} |
| queue messages (\`engine.queue.sends\`) · dead letters | ${fmt(run.queueSends)} · ${fmt(run.deadLetters)} |
| runs of process-events · of execute-workflow (redeliveries, failed runs) | ${fmt(p.deliveries)} (${fmt(p.redeliveries)}, ${fmt(p.failedDeliveries)}) · ${fmt(x.deliveries)} (${fmt(x.redeliveries)}, ${fmt(x.failedDeliveries)}) |
| events run more than once · e-mails run more than once (of which SES called again) | ${fmt(p.extra.units)} · ${fmt(x.extra.units)} (${fmt(x.extra.sesRetries)}) |
| the local stream poller's own reads of the stream (not in the floor: no engine code sends them) | ${streamReadsText(run)} |
${floor ? `${floor.rows}\n` : ''}${cpu ? `${cpu.rows}\n` : ''}
${floor ? `${floor.goal}\n` : ''}${cpu ? `${cpu.text}\n` : ''}How requests are attributed: the bench registers the runtime's queue functions again (same table, batch size,
concurrency, retries, visibility timeout) with each message of a batch run as its own invocation, in parallel as a batch's records
run, inside its own async scope: DynamoDB requests are counted with \`RequestCounter.measure\`, SQS sends, schedules
and SES calls by counting wrappers around the engine's queue, scheduler and mailer ports. Each stream function
invocation (webhook-facts, day-counters) runs in a scope of its own too, summed in its row per e-mail. Ingest is what
no scope claimed: the API's requests. Requests are attempts: a retried transaction counts each time. The table's figures
per event and per e-mail sum every run of its message, with how many events or e-mails needed n requests in
parentheses; the budgets are per run of the function (one delivery): a message that comes back — redelivered after
the visibility timeout, or retried by the queue after a transient SES failure — is a second run, with its own budget.

${table}

| budget | measured | limit | |
|---|---|---|---|
${budgets}
`;
}
