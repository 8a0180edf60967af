import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { queueFunctions } from '../../functions/queues.js';
import { routes } from '../../functions/routes.js';
import { STREAM_FUNCTION_DEFAULTS, streamFunctions } from '../../functions/streams.js';
import type { LocalRuntime } from '../../local/runtime.js';
import { createQueueDispatcher } from '../../local/queue-functions.js';
import { createDocumentClient } from '../../shared/adapters/dynamo/document-client.js';
import { TABLE_KEYS } from '../../shared/adapters/dynamo/table-definition.js';
import { fullPath } from '../../shared/http/route-definition.js';
import type { SubscriptionPlan } from '../../shared/domain/plans/catalog.js';
import { costTable, gbSeconds, type CostTable, type IndexDefinition, type MeasuredUse } from './cost-model.js';
import { CostMeter, type CostTotals } from './cost-meter.js';
import type { EngineMeter } from './engine-meter.js';
import { PRICES, PRICE_REGION } from './prices.js';
import { benchContacts, type Send } from './scenarios.js';
import { batchesOf, writeUnits } from './stats-cost.js';
import { coldTimes } from './cold-quota.js';
import { cpuQuotaRunner } from './cpu-quota.js';
import { MB_PER_VCPU, MEMORY_SIZES, sizeFunction, type SizedFunction } from './memory-sizing.js';
import { chunksOf } from '../../shared/adapters/dynamo/day-counters-projection.js';
import type { DynamoDBRecord } from 'aws-lambda';

/**
 * The cost part of `npm run bench` (`BENCH_ONLY=cost`): what 1,000 e-mails cost on AWS, for three kinds of e-mail,
 * each measured on its own through the local runtime, then priced (scripts/bench/prices.ts):
 * - a system workflow e-mail: an async `trial_ending` event for an existing contact (the engine bench's path), one
 *   e-mail at a time, each sent (and its status notifications taken) before the next event;
 * - a 3-step journey, send → wait 1 minute → send: `COST_EMAILS / 2` runs entered together, counted per e-mail;
 * - a broadcast recipient: one broadcast to `COST_EMAILS` contacts, at the runtime's pace.
 * What is measured, and how (docs/decisions/0218-cost-model.md):
 * - DynamoDB read and write units on every request of the runtime (cost-meter.ts): reads as DynamoDB Local reports
 *   them, writes by DynamoDB's rules from each item's images, indexes included;
 * - Lambda: one invocation per HTTP request, per queue batch (as the event source mapping delivers it), and per stream
 *   batch as a mapping with the function's batch size and batching window would form them from the records' arrival
 *   times; each invocation's handler time, with the DynamoDB round trip modelled (`BENCH_LATENCY_MS`, default 4),
 *   × the memory the synthesized stack gives that function;
 * - SQS: every send (a batch of 10 one request; a schedule's or SES notification's delivery included), and one
 *   receive and one delete per batch delivered;
 * - API Gateway: the bench's own requests; SNS: one publish per SES status notification; Scheduler: schedules fired.
 */
export interface CostBenchDeps {
  runtime: LocalRuntime;
  /** Its counting ports stay in the container: SES sends are read from it. */
  meter: EngineMeter;
  /** The container's DynamoDB client (the meter's middleware goes on it). */
  db: DynamoDBDocumentClient;
  setLatency(ms: number): void;
  send: Send;
  newClient(plan: SubscriptionPlan['tier']): Promise<{ id: number; key: string }>;
  region: string;
}

export interface KindRun {
  kind: string;
  /** The machine's 1-minute load average when the kind's measurement ended (its durations depend on it). */
  load: number;
  how: string;
  use: MeasuredUse;
  table: CostTable;
  totals: CostTotals;
  /**
   * The day counters: their table write units as the local poller's batches (100 ms polls) made them, and as the
   * mapping's batches would; the table's figure takes the second.
   */
  counters: { local: number; modelled: ModelledCounters };
  /** Lambda use per function: invocations (modelled for stream functions), GB-s, memory. */
  functions: { fn: string; invocations: number; gbSeconds: number; memoryMb: number }[];
}

/** The day-counters function, whose writes the bench prices at the mapping's batches rather than the local poller's. */
const COUNTERS_HANDLER = 'day-counters';
const COUNTERS_FUNCTION = `table stream -> ${COUNTERS_HANDLER}`;

/** The projection's writes as the mapping would batch its records. */
export interface ModelledCounters {
  records: number;
  batches: number;
  transactions: number;
  /** Table write units (each item ≤ the largest counter item measured, 2 units a started KB in a transaction). */
  units: number;
}

export interface CostRun {
  date: string;
  emails: number;
  latencyMs: number;
  kinds: KindRun[];
  sizing: SizingRun;
}

/** The memory sizing pass: each function on the system e-mail's path at 256, 512 and 1,024 MB. */
export interface SizingRun {
  emails: number;
  latencyMs: number;
  /** The cgroup interface the cold starts ran under; undefined: no CPU quota here, cold starts not measured. */
  quota: 'v1' | 'v2' | undefined;
  functions: SizedFunction[];
}

const DEFAULT_EMAILS = 200;
const WARM_UP_EMAILS = 20;
const POLL_MS = 5;
/** Longest wait for a kind's e-mails or for idle queues: a stuck run fails the part rather than hanging it. */
const DEADLINE_MS = 180_000;
/** The journey's wait: under 15 minutes, so an SQS delay (a longer one takes a schedule instead). */
const JOURNEY_WAIT_MINUTES = 1;

const INDEXES: IndexDefinition[] = [TABLE_KEYS.gsi1, TABLE_KEYS.gsi2, TABLE_KEYS.gsi3].map((gsi) => ({
  name: gsi.name,
  partitionKey: gsi.partitionKey,
  sortKey: gsi.sortKey,
  projection: 'projection' in gsi ? gsi.projection : 'ALL',
}));

export async function runCostBench(deps: CostBenchDeps): Promise<CostRun> {
  const emails = Math.max(2, Number(process.env['COST_EMAILS'] ?? DEFAULT_EMAILS));
  const latencyMs = Math.max(0, Number(process.env['BENCH_LATENCY_MS'] ?? 4));
  console.log('Cost: reading each function memory from the synthesized stack…');
  const memory = await functionMemory();
  const meter = new CostMeter(
    createDocumentClient({ region: deps.region, endpoint: deps.runtime.dynamoEndpoint }),
    INDEXES,
    { partitionKey: TABLE_KEYS.partitionKey, sortKey: TABLE_KEYS.sortKey },
  );
  meter.install(deps.db);
  const platform = instrumentPlatform(deps, meter);
  const send: Send = async (method, path, key, body) => {
    // Timed around the whole request: the bench's own HTTP client is inside it (its CPU too, in the sizing pass).
    const res = await meter.timed(routeFunction(method, path), () => deps.send(method, path, key, body));
    platform.apiRequests += 1;
    return res;
  };
  const sesSent = () => deps.meter.unscoped.ses;
  const untilSent = async (count: number, what: string) => {
    const deadline = performance.now() + DEADLINE_MS;
    while (sesSent() < count) {
      if (performance.now() > deadline) throw new Error(`cost bench: ${what}: ${sesSent()} of ${count} sent in time`);
      await sleep(POLL_MS);
    }
  };
  /** Until nothing is left to do: the queues (the status notifications a second after each send), the stream. */
  const drain = async () => {
    const queue = deps.runtime.engine.queue;
    for (let round = 0; round < 3; round += 1) {
      await sleep(1_500);
      await queue.idle(DEADLINE_MS);
      await withDeadline(deps.runtime.streams.settled(), 'the stream functions to settle');
    }
  };
  const measure = async (kind: string, how: string, work: () => Promise<number>): Promise<KindRun> => {
    deps.setLatency(latencyMs);
    meter.reset();
    platform.reset();
    const sesBefore = sesSent();
    const expected = await work();
    await drain();
    deps.setLatency(0);
    const sent = sesSent() - sesBefore;
    // More than the kind's own (another workflow the events met) is priced per e-mail as well, and said.
    if (sent !== expected) console.warn(`Cost: ${kind}: ${sent} e-mails sent, ${expected} expected`);
    const totals = meter.totals;
    const functions = Object.entries(totals.functions).map(([fn, use]) => {
      const memoryMb = memory.get(fn);
      if (memoryMb === undefined)
        throw new Error(`cost bench: no arm64 function "${fn}" with a memory size in the synthesized stack`);
      return {
        fn,
        invocations: platform.streamInvocations(fn) ?? use.invocations,
        gbSeconds: gbSeconds(use.billedMs, memoryMb),
        memoryMb,
      };
    });
    const localCounters = totals.counterWrites[COUNTERS_FUNCTION] ?? { table: 0, maxBytes: 0 };
    const modelled = platform.modelledCounters(localCounters.maxBytes);
    const use: MeasuredUse = {
      emails: sent,
      dynamoWriteTable: totals.tableWrite - localCounters.table + modelled.units,
      dynamoWriteIndexes: Object.values(totals.indexWrite).reduce((a, b) => a + b, 0),
      dynamoRead: totals.reportedRead + totals.checkRead,
      streamRecords: platform.streamRecords(),
      lambdaRequests: functions.reduce((n, f) => n + f.invocations, 0),
      lambdaGbSeconds: functions.reduce((n, f) => n + f.gbSeconds, 0),
      sqsRequests: platform.sqsRequests(),
      schedulerInvocations: platform.schedulesFired,
      apiRequests: platform.apiRequests,
      snsPublishes: platform.notifications,
      sesEmails: sent,
    };
    const run = {
      kind,
      load: loadavg()[0]!,
      how,
      use,
      table: costTable(use),
      totals: structuredClone(totals),
      counters: { local: localCounters.table, modelled },
      functions,
    };
    console.log(
      `Cost: ${kind}: ${run.table.overhead.toFixed(4)} $ per 1,000 beside SES's ${run.table.ses.toFixed(2)} $`,
    );
    return run;
  };

  // Warm Node and the JVM on the system path first (unmeasured).
  const system = await systemClient(deps, emails + WARM_UP_EMAILS);
  console.log(`Cost: warming up with ${WARM_UP_EMAILS} system e-mails…`);
  const warmBase = sesSent();
  for (let i = 0; i < WARM_UP_EMAILS; i += 1) {
    await postEvent(send, system, i);
    await untilSent(warmBase + i + 1, 'warm-up');
  }
  await drain();

  const sizingArgs = {
    meter,
    send,
    memory,
    latencyMs,
    emails: Math.max(20, Number(process.env['COST_SIZING_EMAILS'] ?? DEFAULT_SIZING_EMAILS)),
    untilSent,
    drain,
  };
  // The sizing pass alone (`COST_SIZING_ONLY=1`): to choose sizes before the priced run, which then prices them.
  if (process.env['COST_SIZING_ONLY'] === '1') {
    const sizing = await sizingPass(deps, sizingArgs);
    platform.restore();
    return { date: new Date().toISOString().slice(0, 10), emails, latencyMs, kinds: [], sizing };
  }

  const kinds: KindRun[] = [];
  console.log(`Cost: ${emails} system workflow e-mails, one at a time…`);
  kinds.push(
    await measure(
      'System workflow e-mail',
      `${emails} async \`trial_ending\` events, one at a time (each e-mail sent before the next event)`,
      async () => {
        const base = sesSent();
        for (let i = 0; i < emails; i += 1) {
          await postEvent(send, system, WARM_UP_EMAILS + i);
          await untilSent(base + i + 1, 'system e-mails');
        }
        return emails;
      },
    ),
  );

  const runs = Math.ceil(emails / 2);
  const journey = await journeyClient(deps, runs);
  console.log(`Cost: ${runs} journey runs (send → wait ${JOURNEY_WAIT_MINUTES} min → send)…`);
  kinds.push(
    await measure(
      '3-step journey (per e-mail)',
      `${runs} runs of send → wait ${JOURNEY_WAIT_MINUTES} minute → send, entered by one event each, counted per e-mail (2 a run)`,
      async () => {
        const base = sesSent();
        for (let i = 0; i < runs; i += 1) {
          const res = await send('POST', '/client/events', journey.key, {
            json: { type: JOURNEY_EVENT, email: journey.emails[i] },
          });
          if (res.status !== 202) throw new Error(`POST /client/events answered ${res.status}`);
        }
        await untilSent(base + 2 * runs, 'journey e-mails');
        return 2 * runs;
      },
    ),
  );

  const audience = await broadcastClient(deps, emails);
  console.log(`Cost: a broadcast to ${emails} contacts…`);
  kinds.push(
    await measure(
      'Broadcast recipient',
      `one broadcast to ${emails} contacts (all subscribed), created and scheduled now, at the runtime's pace`,
      async () => {
        const base = sesSent();
        const created = await send('POST', '/client/broadcasts', audience.key, {
          json: {
            name: 'Cost bench broadcast',
            definition: {
              audience: { all_subscribed: true },
              category: 'marketing',
              variants: [{ template_id: 1, subject: 'Cost bench' }],
              schedule: { mode: 'now' },
            },
          },
        });
        if (created.status !== 201) throw new Error(`POST /client/broadcasts answered ${created.status}`);
        const scheduled = await send('POST', `/client/broadcasts/${created.body.data.id}/schedule`, audience.key, {
          json: { draft_version: 1 },
        });
        if (scheduled.status !== 200) throw new Error(`schedule answered ${scheduled.status}`);
        await untilSent(base + emails, 'broadcast e-mails');
        return emails;
      },
    ),
  );

  const sizing = await sizingPass(deps, sizingArgs);
  platform.restore();
  return { date: new Date().toISOString().slice(0, 10), emails, latencyMs, kinds, sizing };
}

const DEFAULT_SIZING_EMAILS = 100;
/** Cold starts per function and size (the median is kept). */
const COLD_RUNS = 5;

/**
 * The memory sizing: system workflow e-mails one at a time with the meter's pricing off (no image reads inside an
 * invocation), each invocation that ran alone giving its wall and CPU time; each function on the path then sized by
 * memory-sizing.ts, its cold start measured under each size's CPU share where this machine allows a CPU quota.
 */
async function sizingPass(
  deps: CostBenchDeps,
  o: {
    meter: CostMeter;
    send: Send;
    memory: Map<string, number>;
    latencyMs: number;
    emails: number;
    untilSent: (count: number, what: string) => Promise<void>;
    drain: () => Promise<void>;
  },
): Promise<SizingRun> {
  const client = await systemClient(deps, o.emails);
  console.log(`Cost: sizing Lambda memory on ${o.emails} system e-mails, one at a time, writes not priced…`);
  o.meter.pricing = false;
  o.meter.reset();
  deps.setLatency(o.latencyMs);
  try {
    const base = deps.meter.unscoped.ses;
    for (let i = 0; i < o.emails; i += 1) {
      await postEvent(o.send, client, i);
      await o.untilSent(base + i + 1, 'sizing e-mails');
    }
    await o.drain();
  } finally {
    deps.setLatency(0);
    o.meter.pricing = true;
  }
  const runner = cpuQuotaRunner();
  const functions: SizedFunction[] = [];
  for (const [fn, use] of Object.entries(o.meter.totals.functions)) {
    // Too few invocations ran alone (the sender overlaps its own send's notification): every invocation's figures,
    // an upper bound of its CPU time, stand in, and the table says so.
    const alone = use.solo.invocations >= 5;
    if (!alone && use.all.invocations < 5) continue;
    const cold = runner ? await coldTimes(runner, fn, MEMORY_SIZES, COLD_RUNS) : undefined;
    functions.push(
      sizeFunction({
        fn,
        http: !/ -> /.test(fn),
        sender: queueFunctions.some((q) => q.sendsEmail === true && fn === `${q.queue} queue -> ${q.handler}`),
        currentMb: o.memory.get(fn) ?? Number.NaN,
        invocationsPerEmail: use.invocations / o.emails,
        solo: alone ? use.solo : use.all,
        overlapped: !alone,
        coldMs: (memoryMb) => cold?.get(memoryMb),
      }),
    );
  }
  return { emails: o.emails, latencyMs: o.latencyMs, quota: runner?.kind, functions };
}

const SYSTEM_EVENT = 'trial_ending';
const JOURNEY_EVENT = 'cost_bench_signed_up';

interface Audience {
  key: string;
  emails: string[];
}

async function contactsOf(deps: CostBenchDeps, key: string, tag: string, count: number): Promise<string[]> {
  const settings = await deps.send('PATCH', '/client/settings', key, { json: { max_emails_per_day: 10 } });
  if (settings.status !== 200) throw new Error(`PATCH /client/settings answered ${settings.status}`);
  const contacts = benchContacts(count).map((c) => ({ ...c, email: c.email.replace('bench.', `cost-${tag}.`) }));
  for (let from = 0; from < contacts.length; from += 1000) {
    const chunk = contacts.slice(from, from + 1000);
    const res = await deps.send('POST', '/client/contacts/bulk', key, { json: { contacts: chunk } });
    if (res.status !== 200 || res.body.data?.created !== chunk.length)
      throw new Error(`bulk create answered ${res.status}`);
  }
  await deps.runtime.engine.queue.idle(DEADLINE_MS);
  await withDeadline(deps.runtime.streams.settled(), 'the stream functions to settle');
  return contacts.map((c) => c.email);
}

async function systemClient(deps: CostBenchDeps, count: number): Promise<Audience> {
  const { key } = await deps.newClient('growth');
  return { key, emails: await contactsOf(deps, key, 'system', count) };
}

async function journeyClient(deps: CostBenchDeps, count: number): Promise<Audience> {
  const { key } = await deps.newClient('growth');
  const emails = await contactsOf(deps, key, 'journey', count);
  const created = await deps.send('POST', '/client/journeys', key, {
    json: {
      name: 'Cost bench: send, wait, send',
      definition: {
        trigger: { event: JOURNEY_EVENT, reentry: { mode: 'always' } },
        entry: 'first',
        steps: [
          { id: 'first', type: 'send', template_id: 1, send_time: { mode: 0 }, next: 'pause' },
          { id: 'pause', type: 'wait', minutes: JOURNEY_WAIT_MINUTES, next: 'second' },
          { id: 'second', type: 'send', template_id: 1, send_time: { mode: 0 }, next: null },
        ],
        settings: {
          category: 'marketing',
          topic_id: null,
          critical: false,
          exit_events: [],
          conversion_window_days: 7,
        },
      },
    },
  });
  if (created.status !== 201)
    throw new Error(`POST /client/journeys answered ${created.status}: ${JSON.stringify(created.body)}`);
  const published = await deps.send('POST', `/client/journeys/${created.body.data.id}/publish`, key, {
    json: { draft_version: created.body.data.draft_version },
  });
  if (published.status !== 201) throw new Error(`publish answered ${published.status}`);
  return { key, emails };
}

async function broadcastClient(deps: CostBenchDeps, count: number): Promise<Audience> {
  const { key } = await deps.newClient('scale');
  return { key, emails: await contactsOf(deps, key, 'broadcast', count) };
}

async function postEvent(send: Send, client: Audience, i: number): Promise<void> {
  const body = { type: SYSTEM_EVENT, email: client.emails[i], idempotency_key: `cost-${i}` };
  const res = await send('POST', '/client/events', client.key, { json: body });
  if (res.status !== 202) throw new Error(`POST /client/events answered ${res.status}: ${JSON.stringify(res.body)}`);
}

/** The route function a request reaches, named as the stack describes it (`POST /api/v1/client/events`). */
function routeFunction(method: string, path: string): string {
  const bare = path.split('?')[0]!;
  // A literal segment wins over a parameter (`/client/broadcasts/{id}` would take `/client/broadcasts/stats`).
  const match = routes
    .filter((r) => r.method === method && new RegExp(`^${r.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare))
    .sort((a, b) => a.path.split('{').length - b.path.split('{').length)[0];
  if (!match) throw new Error(`cost bench: no route for ${method} ${bare}`);
  return `${match.method} ${fullPath(match)}`;
}

/**
 * Puts the meter around the runtime's platform pieces: each queue function's batches (one invocation, one receive and
 * one delete each), each stream function's invocations (timed; its records kept with their arrival times, to form
 * the batches a mapping would), the schedules that fire, the queue's sends and the status notifications.
 */
function instrumentPlatform(deps: CostBenchDeps, meter: CostMeter) {
  const { queue, scheduler } = deps.runtime.engine;
  const dispatcher = createQueueDispatcher({ region: deps.region });
  let batches = 0;
  let sendsBefore = queue.sends;
  const records = new Map<string, number[]>();
  // The day counters' own records, for the writes the mapping's batches would make (modelledCounters).
  const counted: { at: number; record: DynamoDBRecord }[] = [];
  const state = {
    apiRequests: 0,
    schedulesFired: 0,
    notifications: 0,
  };
  // Each queue keeps the consumer settings the runtime gave it (batch size, concurrency, visibility, retries): only
  // its delivery is wrapped, one batch one invocation, straight to the function as the runtime's own consumer does.
  for (const fn of queueFunctions) {
    const current = queue.consumerOf(fn.queue);
    if (!current) throw new Error(`cost bench: nothing consumes the "${fn.queue}" queue`);
    queue.consume(fn.queue, {
      ...current,
      deliver: async (deliveries) => {
        batches += 1;
        if (fn.queue === 'ses-status') state.notifications += deliveries.filter((d) => d.receiveCount === 1).length;
        return meter.timed(`${fn.queue} queue -> ${fn.handler}`, () => dispatcher.deliver(fn.queue, deliveries));
      },
    });
  }
  // The poller's one invocation of a stream function (LocalStreamPoller's private `invoke`), timed.
  type Invoke = (fn: { handler: string }, event: { Records: unknown[] }, ...rest: unknown[]) => Promise<unknown>;
  const poller = deps.runtime.streams as unknown as { invoke: Invoke };
  if (typeof poller.invoke !== 'function') throw new Error('cost bench: the stream poller no longer has its invoke');
  const invoke = poller.invoke.bind(poller);
  poller.invoke = (fn, event, ...rest) => {
    const at = Date.now();
    const list = records.get(fn.handler) ?? [];
    for (let i = 0; i < event.Records.length; i += 1) list.push(at);
    records.set(fn.handler, list);
    if (fn.handler === COUNTERS_HANDLER)
      for (const record of event.Records) counted.push({ at, record: record as DynamoDBRecord });
    return meter.timed(`table stream -> ${fn.handler}`, () => invoke(fn, event, ...rest));
  };
  // The local scheduler's timer for one schedule (its private `arm`): a schedule fires when its `fire` runs.
  const armed = scheduler as unknown as { arm: (name: string, at: number, fire: () => Promise<void>) => void };
  if (typeof armed.arm !== 'function') throw new Error('cost bench: the local scheduler no longer arms its timers');
  const arm = armed.arm.bind(armed);
  armed.arm = (name, at, fire) =>
    arm(name, at, async () => {
      state.schedulesFired += 1;
      return fire();
    });
  return Object.assign(state, {
    reset() {
      state.apiRequests = 0;
      state.schedulesFired = 0;
      state.notifications = 0;
      batches = 0;
      sendsBefore = queue.sends;
      records.clear();
      counted.length = 0;
    },
    /** Sends (a batch of up to 10 one request), and one receive and one delete per batch delivered. */
    sqsRequests: () => queue.sends - sendsBefore + 2 * batches,
    streamRecords: () => [...records.values()].reduce((n, list) => n + list.length, 0),
    /**
     * The invocations a stream function's mapping would make for the records it took: batches of its batch size
     * closed by its batching window, from the records' arrival times (a retried batch's records counted again).
     */
    streamInvocations(fn: string): number | undefined {
      const definition = streamFunctions.find((s) => `table stream -> ${s.handler}` === fn);
      if (!definition) return undefined;
      const times = (records.get(definition.handler) ?? []).map((at) => ({ at }));
      const windowMs =
        (definition.maxBatchingWindowSeconds ?? STREAM_FUNCTION_DEFAULTS.maxBatchingWindowSeconds) * 1000;
      return batchesOf(times, definition.batchSize ?? STREAM_FUNCTION_DEFAULTS.batchSize, windowMs).length;
    },
    /**
     * The day-counter writes the mapping's batches would make of the records the projection took (its batch size and
     * batching window, from their arrival times): per batch, the projection's chunks (chunksOf), each one transaction
     * of the stream position and its rows — every row priced at the largest counter item the run wrote.
     */
    modelledCounters(maxItemBytes: number): ModelledCounters {
      const definition = streamFunctions.find((s) => s.handler === COUNTERS_HANDLER)!;
      const windowMs =
        (definition.maxBatchingWindowSeconds ?? STREAM_FUNCTION_DEFAULTS.maxBatchingWindowSeconds) * 1000;
      const batches = batchesOf(counted, definition.batchSize ?? STREAM_FUNCTION_DEFAULTS.batchSize, windowMs);
      let transactions = 0;
      let units = 0;
      for (const batch of batches) {
        for (const chunk of chunksOf(batch.map((b) => b.record))) {
          if (chunk.rows.length === 0) continue;
          transactions += 1;
          units += (1 + chunk.rows.length) * writeUnits(maxItemBytes, true);
        }
      }
      return { records: counted.length, batches: batches.length, transactions, units };
    },
    restore() {
      poller.invoke = invoke;
      armed.arm = arm;
    },
  });
}

/**
 * Each Lambda function's memory as the stack configures it: the app of infra/compose-app.ts synthesized in memory
 * (cdk.json's context, bundling skipped), every function by its description (`POST /api/v1/client/events`,
 * `events queue -> process-events`, `table stream -> webhook-facts`).
 */
async function functionMemory(): Promise<Map<string, number>> {
  const { App } = await import('aws-cdk-lib');
  const { CfnFunction } = await import('aws-cdk-lib/aws-lambda');
  const { composeApp } = await import('../../infra/compose-app.js');
  const context = (
    JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as {
      context: Record<string, unknown>;
    }
  ).context;
  const app = new App({
    context: {
      ...context,
      systemFromEmail: 'accounts@mail.example.org',
      onboardingFromAddress: 'onboarding@onboarding.example.net',
      'aws:cdk:bundling-stacks': [],
      '@aws-cdk/core:appMode': 'inmemory',
    },
  });
  const root = composeApp(app);
  const memory = new Map<string, number>();
  for (const node of root.node.findAll()) {
    if (!(node instanceof CfnFunction)) continue;
    if (typeof node.description !== 'string' || typeof node.memorySize !== 'number') continue;
    // The prices are Arm's: a function the bench meets built for x86 is left out of the map, and the bench stops there.
    if (!(node.architectures ?? ['x86_64']).includes('arm64')) continue;
    memory.set(node.description, node.memorySize);
  }
  return memory;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `work`, or a failure after DEADLINE_MS: a stuck run fails the part rather than hanging it. */
async function withDeadline<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`cost bench: waited too long for ${what}`)), DEADLINE_MS);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

export const COST_START = '<!-- cost:begin -->';
export const COST_END = '<!-- cost:end -->';
export const COST_TITLE = '## What 1,000 e-mails cost on AWS';

const usd = (n: number) => (n === 0 ? '0' : n < 0.0001 ? n.toExponential(2) : n.toFixed(4));
const qty = (n: number) => (Number.isInteger(n) ? String(n) : n < 10 ? n.toFixed(2) : n.toFixed(0));
const priceText = (p: { usd: number; per: number }) =>
  p.per === 1 ? `$${p.usd} each` : `$${p.usd} / ${p.per.toLocaleString('en-US')}`;

/** The overhead's rows by cost, each with its share of the overhead (`DynamoDB write request units, table 61%`). */
const shares = (table: CostTable): string =>
  table.rows
    .filter((r) => r.price !== PRICES.sesEmail && r.cost > 0)
    .sort((a, b) => b.cost - a.cost)
    .map((r) => `${r.resource} ${Math.round((r.cost / table.overhead) * 100)}%`)
    .join(', ');

/** The biggest contributors of a kind's overhead: rows by cost, then the writes by item kind. */
function dominant(run: KindRun, top = 6): string[] {
  const scale = 1000 / run.use.emails;
  const wruCost = (units: number) => (units * scale * PRICES.dynamoWrite.usd) / PRICES.dynamoWrite.per;
  // The counters' rows and positions are priced as the mapping would batch them: one line of their own (countersLine).
  const entries = [
    ...Object.entries(run.totals.writeByEntity)
      .filter(([entity]) => !/^(STATS|STREAMPOS)\//.test(entity))
      .map(([entity, units]) => [`table writes of ${entity}`, units] as const),
    ...Object.entries(run.totals.indexWriteByEntity).map(([what, units]) => [`index writes ${what}`, units] as const),
  ]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top);
  return entries.map(([what, units]) => {
    const items = run.totals.itemWritesByEntity[what.replace(/^table writes of /, '')];
    const sizes = items
      ? `, ${qty(items.writes / run.use.emails)} writes of ${(items.bytes / items.writes / 1024).toFixed(1)} KB on average`
      : '';
    return `${what}: ${qty(units / run.use.emails)} WRU an e-mail${sizes} ($${usd(wruCost(units))} per 1,000)`;
  });
}

/** The day counters' writes at both batchings, per e-mail. */
function countersLine(run: KindRun): string {
  const { local, modelled } = run.counters;
  const perEmail = (units: number) => qty(units / run.use.emails);
  return (
    `day counters (STATS rows and the stream position, in transactions): ${perEmail(modelled.units)} WRU an e-mail as ` +
    `the mapping's batches would write them (${modelled.records} records in ${modelled.batches} batches, ` +
    `${modelled.transactions} transactions), priced in the table; ${perEmail(local)} as the local poller's 100 ms ` +
    `batches wrote them`
  );
}

export function printCost(run: CostRun): void {
  console.log(
    `\nLambda memory, from measurement (${run.sizing.emails} system e-mails, cold starts: ${run.sizing.quota ?? 'not measured'})`,
  );
  console.table(
    run.sizing.functions.map((f) => ({
      function: f.fn,
      configured: f.currentMb,
      chosen: f.chosenMb,
      'cpu ms': f.cpuMs.toFixed(1),
      'wait ms': f.waitMs.toFixed(1),
      ...Object.fromEntries(
        f.options.map((o) => [
          `${o.memoryMb} MB warm / cold / $ per 1,000`,
          `${o.warmMs.toFixed(0)} / ${o.coldMs?.toFixed(0) ?? '-'} / ${usd(o.usdPer1000)}`,
        ]),
      ),
    })),
  );
  for (const kind of run.kinds) {
    console.log(`\n${kind.kind} — ${kind.how}`);
    console.table(
      kind.table.rows.map((r) => ({
        resource: r.resource,
        'per 1,000 e-mails': qty(r.quantity),
        price: priceText(r.price),
        cost: usd(r.cost),
      })),
    );
    console.log(
      `overhead ${usd(kind.table.overhead)} $ per 1,000 e-mails = ${kind.table.ratio.toFixed(2)}× SES's own price`,
    );
    console.log(`shares: ${shares(kind.table)}`);
    console.log(`read units by command: ${JSON.stringify(kind.totals.readByCommand)}`);
    console.log(`DynamoDB writes, largest first:\n  ${dominant(kind, Number.POSITIVE_INFINITY).join('\n  ')}`);
    console.log(countersLine(kind));
    console.log(
      `one-item transactions (twice a lone write's units): ${JSON.stringify(kind.totals.singleItemTransactions)}`,
    );
    console.table(
      kind.functions.map((f) => ({
        function: f.fn,
        memoryMb: f.memoryMb,
        'invocations per e-mail': qty(f.invocations / kind.use.emails),
        'GB-s per 1,000': qty((f.gbSeconds * 1000) / kind.use.emails),
      })),
    );
    const check = kind.totals.getItemCheck;
    console.log(
      `GetItem read units: DynamoDB Local's figure agreed with the rule on ${check.agreed} of ${check.compared}; ` +
        `${kind.totals.failedWrites} failed writes billed`,
    );
  }
}

/** The memory sizing's table rows: each function at each size, the chosen one in bold. */
function sizingRows(sizing: SizingRun): string[] {
  const ms = (n: number | undefined) => (n === undefined ? 'not measured' : `${Math.round(n)} ms`);
  return sizing.functions.flatMap((f) =>
    f.options.map((o) => {
      const mark = (text: string) => (o.memoryMb === f.chosenMb ? `**${text}**` : text);
      return (
        `| ${f.fn} | ${mark(`${o.memoryMb} MB`)}${o.memoryMb === f.currentMb ? ' (configured)' : ''} | ` +
        `${f.cpuMs.toFixed(1)} + ${f.waitMs.toFixed(1)} ms (${f.samples}${f.overlapped ? ', beside others: CPU an upper bound' : ''}) | ` +
        `${o.warmMs.toFixed(1)} ms | ` +
        `${ms(o.coldMs)} | ${qty(f.invocationsPerEmail)} | ${qty(o.gbSecondsPer1000)} | ${usd(o.usdPer1000)} | ` +
        `${o.excluded ?? (o.memoryMb === f.chosenMb ? 'chosen: the cheapest allowed' : '')} |`
      );
    }),
  );
}

function sizingMarkdown(sizing: SizingRun): string {
  const cold =
    sizing.quota === undefined
      ? 'No CPU quota could be set on this machine (no writable cgroup cpu controller), so cold starts were not measured.'
      : `Cold start: a new Node process importing the function's deployed bundle (built as \`cdk synth\` builds it) under a ` +
        `cgroup ${sizing.quota} CPU quota of the size's share, the median of ${COLD_RUNS}.`;
  return `### Lambda memory, from measurement

${sizing.emails} system workflow e-mails, one at a time, DynamoDB round trip modelled at ${sizing.latencyMs} ms, writes not
metered (so an invocation's CPU time is its own). Each invocation that ran alone gives its CPU time and its wall
time; the rest of the wall time is waiting (DynamoDB, SQS, SES). Lambda gives a function CPU in proportion to its
memory, one vCPU at ${MB_PER_VCPU.toLocaleString('en-US')} MB: at a size, a warm invocation takes its waits plus its CPU time ÷
the size's share of a vCPU (this machine's core stands in for Lambda's Arm vCPU). ${cold} The chosen size is the
cheapest whose cold start is within 1 s, for an HTTP function whose warm answer is within 150 ms, and for the sender
whose CPU time a send is within 30 ms (its mapping is sized for 150 ms sends; scripts/bench/memory-sizing.ts). An HTTP function's time includes the bench's own HTTP client.

| function | memory | CPU + wait a warm invocation (samples) | warm at this size | cold start | invocations an e-mail | GB-s per 1,000 e-mails | $ per 1,000 | |
|---|---|---|---|---|---|---|---|---|
${sizingRows(sizing).join('\n')}
`;
}

export function costMarkdown(run: CostRun): string {
  const kinds = run.kinds.map((kind) => {
    const rows = kind.table.rows.map(
      (r) => `| ${r.resource} | ${qty(r.quantity)} | ${priceText(r.price)} | ${usd(r.cost)} |`,
    );
    const fns = kind.functions
      .sort((a, b) => b.gbSeconds - a.gbSeconds)
      .map(
        (f) =>
          `${f.fn} (${f.memoryMb} MB): ${qty(f.invocations / kind.use.emails)} invocations, ` +
          `${qty((f.gbSeconds * 1000) / kind.use.emails)} GB-s per 1,000`,
      );
    return `### ${kind.kind}

${kind.how}; load average ${kind.load.toFixed(1)} on ${cpus().length} cores when it ended.

| resource | per 1,000 e-mails | price (${PRICE_REGION}) | cost ($) |
|---|---|---|---|
${rows.join('\n')}
| **overhead (all but SES)** | | | **${usd(kind.table.overhead)}** |
| **total** | | | **${usd(kind.table.total)}** |

Overhead: **${kind.table.ratio.toFixed(2)}× SES's own price**; its shares: ${shares(kind.table)}.
Largest DynamoDB writes (table and index, per e-mail):

${dominant(kind)
  .map((line) => `- ${line}`)
  .join('\n')}
- ${countersLine(kind)}

Lambda by function: ${fns.join('; ')}.
`;
  });
  const prices = Object.values(PRICES).map((p) => `- $${p.usd} ${p.unit} — ${p.source} (as of ${p.asOf})`);
  return `${COST_START}
Written by \`npm run bench\` (part \`BENCH_ONLY=cost\`, scripts/bench/cost.ts) on ${run.date}, ${run.emails} e-mails of
each kind, DynamoDB round trip modelled at ${run.latencyMs} ms a request. How each figure is measured and what is left
out: docs/decisions/0218-cost-model.md. DynamoDB write units are DynamoDB's rules applied to the items' real images
(DynamoDB Local does not bill transactions as DynamoDB does); read units as DynamoDB Local reports them. Stream reads by
Lambda are free; their Lambda invocations, and the day counters' writes, are counted as a mapping with each function's
batch size and batching window would make them (the local poller hands records over every 100 ms, so its batches are
smaller than the mapping's 10 s window makes them). Lambda durations are the handlers' times on this machine, beside other work (its load is given with
each kind): on a busy machine they, and the GB-seconds, are high.

${kinds.join('\n')}
${sizingMarkdown(run.sizing)}
Prices (${PRICE_REGION}, on-demand, past the free tiers; scripts/bench/prices.ts):

${prices.join('\n')}
${COST_END}`;
}
