import type { LocalRuntime } from '../../local/runtime.js';
import type { RequestCounter } from '../../shared/adapters/dynamo/request-counter.js';
import type { EngineMeter, MeteredDelivery } from './engine-meter.js';
import type { Send } from './scenarios.js';

/**
 * The segments' bench (`BENCH_ONLY=segments`), on the local runtime through the API:
 * 1. The burst: a scale client with `changes` contacts and three segments (plan = pro, plan = team, city = Paris),
 *    all ready; then one bulk update of every contact at once (1,000 rows a request, a few requests in flight) — 4 in
 *    5 change `plan` (a watched attribute), 1 in 5 only `first_name` (watched by no segment). Measured: the time until
 *    the segments' counts are the expected ones (settled), the contacts the change router sent to evaluation (each
 *    changed contact once, the unwatched changes none: no contact evaluated for another's change), evaluate-segments'
 *    requests per evaluated contact, and the stream's lag: from the answer of the bulk request that wrote a change until
 *    the router (on webhook-facts) was handed its record (DynamoDB Local's ApproximateCreationDateTime runs behind the
 *    write, so it is not used).
 * 2. The backfill: another client with `backfillContacts` contacts and no segment creates one (plan = pro, a quarter of
 *    them): the time until it is ready with its exact count, its pages (backfill messages), and the requests per
 *    contact scanned.
 */
export interface SegmentsBenchDeps {
  runtime: LocalRuntime;
  meter: EngineMeter;
  counter: RequestCounter;
  send: Send;
  newClient(): Promise<{ id: number; key: string }>;
}

/** What a contact's evaluation and a backfill may cost at most; the part fails above. */
export const SEGMENTS_BUDGET = {
  /** evaluate-segments' requests per contact evaluated: 1 BatchGetItem for 25, a transaction for those that moved. */
  evaluatePerContact: 0.2,
  /**
   * The backfill's requests per page (≤ 100 contacts of one listing shard): the progress Query, the contacts' Query,
   * their BatchGetItem, the members' transaction, the progress update — ≈ 0.06 a contact when the pages are full.
   */
  backfillPerPage: 8,
} as const;

export interface SegmentsBenchRun {
  date: string;
  burst: {
    contacts: number;
    changes: number;
    watchedChanges: number;
    writeS: number;
    settledS: number;
    /** Contacts the router sent to evaluation (first deliveries), and the same with redeliveries. */
    evaluated: number;
    evaluatedWithRetries: number;
    messages: number;
    dynamo: number;
    byCommand: Record<string, number>;
    lag: { n: number; p50: number; p95: number; max: number };
    counts: Record<string, { expected: number; got: number }>;
  };
  backfill: {
    contacts: number;
    importS: number;
    readyS: number;
    pages: number;
    dynamo: number;
    byCommand: Record<string, number>;
    count: number;
    expected: number;
  };
  budgets: { name: string; value: number; limit: number; pass: boolean }[];
}

const POLL_MS = 250;
const ROWS = 1_000;
const IN_FLIGHT = 4;
const condition = (name: string, value: string) => ({
  match: 'all',
  groups: [{ match: 'all', conditions: [{ on: 'custom_field', name, op: 'eq', value }] }],
});

export async function runSegmentsBench(
  deps: SegmentsBenchDeps,
  options: { changes: number; backfillContacts: number },
): Promise<SegmentsBenchRun> {
  const tag = `sgb${Date.now().toString(36)}`;
  const emailOf = (i: number) => `${tag}-${i}@bench.example`;
  /** Each row's bulk request answered at (performance.now()), for the burst's stream lag. */
  const answeredAt = new Map<string, number>();
  const bulk = async (key: string, n: number, row: (i: number) => Record<string, unknown>) => {
    let next = 0;
    const chunks = Math.ceil(n / ROWS);
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        for (let c = next++; c < chunks; c = next++) {
          const rows = Array.from({ length: Math.min(ROWS, n - c * ROWS) }, (_, j) => row(c * ROWS + j));
          const res = await deps.send('POST', '/client/contacts/bulk', key, { json: { contacts: rows } });
          if (res.status !== 200)
            throw new Error(`bulk answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
          const at = performance.now();
          for (const r of rows) answeredAt.set(String(r['email']), at);
        }
      }),
    );
  };
  const segmentOf = async (key: string, id: number) =>
    (await deps.send('GET', `/client/segments/${id}`, key, {})).body.data as { status: string; count: number };
  const until = async (what: string, holds: () => Promise<boolean>, timeoutMs: number) => {
    const deadline = performance.now() + timeoutMs;
    while (!(await holds())) {
      if (performance.now() > deadline) throw new Error(`segments bench: ${what} not reached in time`);
      await sleep(POLL_MS);
    }
  };

  // 1. The burst.
  const client = await deps.newClient();
  const n = options.changes;
  console.log(`Segments: ${n} contacts, three segments…`);
  await bulk(client.key, n, (i) => ({
    email: emailOf(i),
    first_name: 'A',
    custom_fields: { plan: 'free', city: i % 10 === 0 ? 'Paris' : 'Lyon' },
  }));
  const segments: Record<string, number> = {};
  for (const [name, def] of [
    ['plan = pro', condition('plan', 'pro')],
    ['plan = team', condition('plan', 'team')],
    ['city = Paris', condition('city', 'Paris')],
  ] as const) {
    const made = await deps.send('POST', '/client/segments', client.key, { json: { name, definition: def } });
    if (made.status !== 201)
      throw new Error(`POST /client/segments answered ${made.status}: ${JSON.stringify(made.body)}`);
    segments[name] = made.body.data.id as number;
  }
  for (const id of Object.values(segments))
    await until('the segments ready', async () => (await segmentOf(client.key, id)).status === 'ready', 600_000);
  await deps.runtime.engine.queue.idle(600_000);
  await deps.runtime.streams.settled();

  // 4 in 5 change plan (to pro or team, alternately), 1 in 5 only first_name.
  const planOf = (i: number) => (i % 5 === 4 ? 'free' : i % 2 === 0 ? 'pro' : 'team');
  const expected: Record<string, number> = { 'plan = pro': 0, 'plan = team': 0, 'city = Paris': 0 };
  for (let i = 0; i < n; i++) {
    if (planOf(i) === 'pro') expected['plan = pro']! += 1;
    if (planOf(i) === 'team') expected['plan = team']! += 1;
    if (i % 10 === 0) expected['city = Paris']! += 1;
  }
  const watchedChanges = Array.from({ length: n }, (_, i) => i).filter((i) => planOf(i) !== 'free').length;
  // When the router (on webhook-facts) was handed each contact's record: the first time after the burst began.
  const routedAt = new Map<string, number>();
  let listening = false;
  const stopListening = deps.runtime.streams.onApplied('webhook-facts', (records, at) => {
    if (!listening) return;
    for (const r of records) {
      const email = (r.dynamodb?.NewImage as { email?: { S?: string } } | undefined)?.email?.S;
      if (email?.startsWith(`${tag}-`) && !routedAt.has(email)) routedAt.set(email, at);
    }
  });
  deps.meter.reset();
  console.log(`Segments: the burst of ${n} changes (${watchedChanges} of a watched attribute)…`);
  answeredAt.clear();
  listening = true;
  const started = performance.now();
  await bulk(client.key, n, (i) => ({
    email: emailOf(i),
    first_name: 'B',
    custom_fields: { plan: planOf(i), city: i % 10 === 0 ? 'Paris' : 'Lyon' },
  }));
  const writeS = (performance.now() - started) / 1000;
  const got: Record<string, number> = {};
  await until(
    'the counts settled',
    async () => {
      for (const [name, id] of Object.entries(segments)) got[name] = (await segmentOf(client.key, id)).count;
      return Object.keys(expected).every((name) => got[name] === expected[name]);
    },
    600_000,
  );
  const settledS = (performance.now() - started) / 1000;
  await deps.runtime.streams.settled();
  await deps.runtime.engine.queue.idle(120_000);
  stopListening();
  const evaluations = deps.meter.deliveries.filter((d) => d.queue === 'segments' && d.kind === 'contacts');
  const firsts = evaluations.filter((d) => d.receiveCount === 1);
  const burstCost = sumCost(evaluations);
  // The poller's `at` is Date.now(); the answers are performance.now(): both taken to the same origin.
  const origin = Date.now() - performance.now();
  const lags: number[] = [];
  for (const [email, at] of routedAt) {
    const answered = answeredAt.get(email);
    if (answered !== undefined) lags.push(at - (answered + origin));
  }
  const sortedLags = [...lags].sort((a, b) => a - b);
  const pct = (p: number) => sortedLags[Math.min(sortedLags.length - 1, Math.floor(p * sortedLags.length))] ?? 0;
  const burst: SegmentsBenchRun['burst'] = {
    contacts: n,
    changes: n,
    watchedChanges,
    writeS,
    settledS,
    evaluated: firsts.reduce((s, d) => s + (d.contacts ?? 0), 0),
    evaluatedWithRetries: evaluations.reduce((s, d) => s + (d.contacts ?? 0), 0),
    messages: evaluations.length,
    dynamo: burstCost.dynamo,
    byCommand: burstCost.byCommand,
    lag: { n: sortedLags.length, p50: pct(0.5), p95: pct(0.95), max: sortedLags.at(-1) ?? 0 },
    counts: Object.fromEntries(Object.keys(expected).map((k) => [k, { expected: expected[k]!, got: got[k] ?? 0 }])),
  };

  // 2. The backfill, on a client of its own.
  const other = await deps.newClient();
  const m = options.backfillContacts;
  console.log(`Segments: importing ${m} contacts for the backfill…`);
  const importStarted = performance.now();
  await bulk(other.key, m, (i) => ({
    email: emailOf(n + i),
    custom_fields: { plan: i % 4 === 0 ? 'pro' : 'free' },
  }));
  const importS = (performance.now() - importStarted) / 1000;
  await deps.runtime.engine.queue.idle(600_000);
  await deps.runtime.streams.settled();
  deps.meter.reset();
  console.log('Segments: the backfill…');
  const backfillStarted = performance.now();
  const made = await deps.send('POST', '/client/segments', other.key, {
    json: { name: 'plan = pro', definition: condition('plan', 'pro') },
  });
  if (made.status !== 201) throw new Error(`POST /client/segments answered ${made.status}`);
  const backfillId = made.body.data.id as number;
  let ready: { status: string; count: number } | undefined;
  const expectedBackfill = Math.ceil(m / 4);
  await until(
    'the backfill ready with its count',
    async () => {
      ready = await segmentOf(other.key, backfillId);
      return ready.status === 'ready' && ready.count === expectedBackfill;
    },
    3_600_000,
  );
  const readyS = (performance.now() - backfillStarted) / 1000;
  await deps.runtime.engine.queue.idle(120_000);
  const pages = deps.meter.deliveries.filter((d) => d.queue === 'segments' && d.kind === 'backfill');
  const backfillCost = sumCost(pages);
  const backfill: SegmentsBenchRun['backfill'] = {
    contacts: m,
    importS,
    readyS,
    pages: pages.length,
    dynamo: backfillCost.dynamo,
    byCommand: backfillCost.byCommand,
    count: ready?.count ?? 0,
    expected: expectedBackfill,
  };
  const run: SegmentsBenchRun = { date: new Date().toISOString().slice(0, 10), burst, backfill, budgets: [] };
  run.budgets = segmentBudgetsOf(run);
  return run;
}

/** Each change evaluated its own contact once, none for an unwatched change; requests within the budgets. */
export function segmentBudgetsOf(run: SegmentsBenchRun): SegmentsBenchRun['budgets'] {
  const b = run.burst;
  const perEvaluated = round2(b.dynamo / Math.max(1, b.evaluatedWithRetries));
  const perPage = round2(run.backfill.dynamo / Math.max(1, run.backfill.pages));
  const countsRight = Object.values(b.counts).every((c) => c.expected === c.got);
  return [
    {
      name: 'contacts evaluated for the burst (first deliveries) = contacts whose watched attribute changed',
      value: b.evaluated,
      limit: b.watchedChanges,
      pass: b.evaluated === b.watchedChanges && countsRight,
    },
    {
      name: 'evaluate-segments requests per contact evaluated',
      value: perEvaluated,
      limit: SEGMENTS_BUDGET.evaluatePerContact,
      pass: perEvaluated <= SEGMENTS_BUDGET.evaluatePerContact,
    },
    {
      name: 'backfill requests per page',
      value: perPage,
      limit: SEGMENTS_BUDGET.backfillPerPage,
      pass: perPage <= SEGMENTS_BUDGET.backfillPerPage,
    },
    {
      name: 'backfill count exact',
      value: run.backfill.count,
      limit: run.backfill.expected,
      pass: run.backfill.count === run.backfill.expected,
    },
  ];
}

function sumCost(deliveries: readonly MeteredDelivery[]): { dynamo: number; byCommand: Record<string, number> } {
  const byCommand: Record<string, number> = {};
  let dynamo = 0;
  for (const d of deliveries) {
    dynamo += d.dynamo.requests;
    for (const [c, x] of Object.entries(d.dynamo.by_command)) byCommand[c] = (byCommand[c] ?? 0) + x;
  }
  return { dynamo, byCommand };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round2 = (x: number) => Math.round(x * 100) / 100;
const r1 = (x: number) => (Math.round(x * 10) / 10).toString();
const commandsText = (byCommand: Record<string, number>, n: number) =>
  Object.entries(byCommand)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([command, x]) => `${command.replace(/Command$/, '')} ${round2(x / Math.max(1, n))}`)
    .join(', ');

export function printSegments(run: SegmentsBenchRun): void {
  console.log(JSON.stringify({ burst: run.burst, backfill: run.backfill }, null, 2));
  console.table(run.budgets);
}

export const SEGMENTS_START = '<!-- segments:begin -->';
export const SEGMENTS_END = '<!-- segments:end -->';
export const SEGMENTS_TITLE = '## Segments: a burst of contact changes, and a backfill';

export function segmentsMarkdown(run: SegmentsBenchRun): string {
  const b = run.burst;
  const f = run.backfill;
  const counts = Object.entries(b.counts)
    .map(([name, c]) => `${name} ${c.got} (expected ${c.expected})`)
    .join('; ');
  const budgetRows = run.budgets.map(
    (x) => `| ${x.name} | ${x.value} | ${x.limit} | ${x.pass ? 'met' : '**NOT met**'} |`,
  );
  return `${SEGMENTS_START}
Written by \`npm run bench\` (part \`BENCH_ONLY=segments\`, scripts/bench/segments.ts) on ${run.date}.

**The burst.** A scale client with ${b.contacts} contacts and three ready segments (plan = pro, plan = team, city = Paris)
updates every contact at once (bulk, ${ROWS} rows a request, ${IN_FLIGHT} requests in flight): ${b.watchedChanges} change
\`plan\`, the other ${b.changes - b.watchedChanges} only \`first_name\`, which no segment reads.

| figure | value |
|---|---|
| the ${b.changes} changes written | ${r1(b.writeS)} s |
| from the first write until every count is right | **${r1(b.settledS)} s** (${counts}) |
| contacts sent to evaluation (first deliveries; with redeliveries) | **${b.evaluated}** (${b.evaluatedWithRetries}) for ${b.watchedChanges} watched changes, in ${b.messages} messages |
| evaluate-segments' DynamoDB requests per contact evaluated | ${round2(b.dynamo / Math.max(1, b.evaluatedWithRetries))} (${commandsText(b.byCommand, b.evaluatedWithRetries)}) |
| stream lag, the change's bulk request answered → its record handed to the router (p50 / p95 / max of ${b.lag.n}; below 0: handed on before the 1,000-row request that wrote it had answered) | ${Math.round(b.lag.p50)} / ${Math.round(b.lag.p95)} / ${Math.round(b.lag.max)} ms |

Each changed contact is evaluated once against all the client's segments in one read; a change no segment reads
reaches no evaluator.

**The backfill.** Another scale client with ${f.contacts} contacts (imported in ${r1(f.importS)} s) creates a segment
plan = pro (a quarter of them): **ready in ${r1(f.readyS)} s** with count ${f.count} (expected ${f.expected}), ${f.pages}
pages (${round2(f.dynamo / Math.max(1, f.pages))} DynamoDB requests a page), ${round2(f.dynamo / Math.max(1, f.contacts))} requests per contact scanned (${commandsText(f.byCommand, f.contacts)}).

| check | value | budget | |
|---|---|---|---|
${budgetRows.join('\n')}
${SEGMENTS_END}`;
}
