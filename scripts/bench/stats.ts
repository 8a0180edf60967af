import { randomUUID } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import { BatchGetCommand, BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { LocalRuntime } from '../../local/runtime.js';
import type { RequestCounter, RequestUsage } from '../../shared/adapters/dynamo/request-counter.js';
import { changeOfRecord, DAY_COUNTERS_PROJECTION } from '../../shared/adapters/dynamo/day-counters-projection.js';
import { keys } from '../../shared/adapters/dynamo/keys.js';
import { getContainer } from '../../shared/composition/container.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { linkSecret } from '../../shared/composition/providers/link-secret.js';
import { sentEmailStore } from '../../shared/composition/providers/sent-email-store.js';
import { statsStore } from '../../shared/composition/providers/stats-store.js';
import { tableOf } from '../../shared/composition/providers/table.js';
import { unsubscribeStore } from '../../shared/composition/providers/unsubscribe-store.js';
import { unsubscribeByLink } from '../../shared/domain/links/public-links.js';
import { counterRowKey, deltasOfChange, type CounterDelta } from '../../shared/domain/stats/counter-facts.js';
import { getStats } from '../../shared/domain/stats/get-stats.js';
import { STAT_COUNTERS } from '../../shared/domain/stats/stats-counters.js';
import type { SubscriptionPlan } from '../../shared/domain/plans/catalog.js';
import { WORKFLOWS } from '../../shared/domain/workflows/catalog.js';
import { streamFunctions } from '../../functions/streams.js';
import type { CapacityMeter } from './capacity-meter.js';
import { ENGINE_PLAN, runEngineBench } from './engine.js';
import type { EngineMeter, MeteredDelivery } from './engine-meter.js';
import { percentile } from './percentiles.js';
import type { Send } from './scenarios.js';
import {
  batchesOf,
  COUNTER_TARGETS,
  itemBytes,
  meanCost,
  noCapacity,
  projectionCost,
  transactionsOf,
  writerMeets,
  writeUnits,
  type Capacity,
  type CountedRecord,
  type OperationCost,
  type ProjectionCost,
  type ProjectionTransaction,
} from './stats-cost.js';

/**
 * The counters' bench (`BENCH_ONLY=stats`): what the day counters cost and how far they lag, now that a projection of
 * the table's change stream is their only writer.
 * - The fact writers: each counted fact's operation (the queue function's run that handles it, or the one-click
 *   unsubscribe's domain call), its DynamoDB requests (RequestCounter) and capacity (ReturnConsumedCapacity and the
 *   write-unit rule, capacity-meter.ts): it must write no counter row.
 * - The projection: every record it applies is heard through the local poller's onApplied hook; its transactions are
 *   tapped on the container's DynamoDB client. Write units per counted fact by DynamoDB's rule, for the engine
 *   bench's mix and for a trickle (one fact a batch), as the local poller batched and as the AWS mapping would.
 * - The lag of each counted record, and end to end from the last write until `GET /client/stats` shows it.
 * - The 90-day read: one Query.
 */

const EVENT_TYPE = 'trial_ending';
/** The facts' client: the engine bench's plan. */
const FACTS_PLAN: SubscriptionPlan['tier'] = ENGINE_PLAN;
/** The 90-day read: a client on the default plan and one on the largest (the plan no longer changes the read). */
const READ_CLIENTS = [
  { label: 'light', plan: 'free' },
  { label: 'busy', plan: 'scale' },
] as const satisfies readonly { label: string; plan: SubscriptionPlan['tier'] }[];
const MINUTE_MS = 60_000;
const HUMAN_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const HUMAN_IP = '203.0.113.7';
const STATS_DAYS = 90;
/** Event types of the catalog's triggers (the events rows a busy client has each day). */
const EVENT_TYPES = [...new Set(WORKFLOWS.map((w) => w.trigger.event))];
/** Events of the mix (the engine bench's flow: an event, its execution, its e-mail and delivery). */
const MIX_EVENTS = Math.max(1, Number(process.env['BENCH_STATS_EVENTS'] ?? 300));
const MIX_CONCURRENCY = 16;
/** The engine bench's warm-up events, which run before its measured ones (their facts are counted as well). */
const ENGINE_WARM_UP = 100;
/** The day-counters mapping as functions/streams.ts declares it (the batches AWS would form). */
const MAPPING = streamFunctions.find((f) => f.handler === DAY_COUNTERS_PROJECTION)!;
const MAPPING_BATCH = MAPPING.batchSize ?? 100;
const MAPPING_WINDOW_MS = (MAPPING.maxBatchingWindowSeconds ?? 1) * 1000;
/** How long the end-to-end wait may take before it is reported as not reached. */
const END_TO_END_DEADLINE_MS = 60_000;

export interface StatsBenchDeps {
  runtime: LocalRuntime;
  meter: EngineMeter;
  capacity: CapacityMeter;
  counter: RequestCounter;
  send: Send;
  /** A fresh client on `plan` (default: the engine bench's plan, growth). */
  newClient(plan?: SubscriptionPlan['tier']): Promise<{ id: number; key: string }>;
}

/** One fact's measured samples. */
interface Samples {
  fact: string;
  where: string;
  runs: { requests: number; capacity: Capacity; byCommand: Record<string, number> }[];
}

export interface WriterCost {
  fact: string;
  where: string;
  cost: OperationCost;
}

export interface StatsRead {
  label: string;
  plan: string;
  rows: number;
  rowBytes: number;
  /** getStats (the domain call the route runs): its DynamoDB requests and read units. */
  requests: number;
  waves: number;
  byCommand: Record<string, number>;
  rcu: number;
  /** The read units DynamoDB's rules give for the rows the Query returns (0.5 per 4 KB, eventually consistent). */
  rcuByRule: number;
  /** The whole route over HTTP (`GET /client/stats`), authentication cached: requests by command. */
  route: { requests: number; byCommand: Record<string, number> };
}

export interface LagFigures {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** One phase's projection: its lag, and its write units as batched locally and as the AWS mapping would. */
export interface ProjectionPhase {
  label: string;
  records: number;
  /** Batches the local poller handed over with at least one counted record, and their mean size. */
  localBatches: number;
  /** From the write's completion (the request that wrote the record's item) until the projection applied it. */
  lagFromWrite: LagFigures;
  /** From the record's ApproximateCreationDateTime (DynamoDB Local's resolution) until applied. */
  lagFromStream: LagFigures;
  /** The transactions the projection sent in the phase (tapped), priced by the rule on the items' sizes. */
  local: ProjectionCost;
  /** What DynamoDB Local reported for those transactions. */
  localReportedWcu: number;
  /** The same records batched as the mapping would (batch size, batching window), one stream shard. */
  aws: ProjectionCost;
  /** Each record alone in its batch: the trickle. */
  trickle: ProjectionCost;
}

export interface StatsBenchRun {
  writers: WriterCost[];
  phases: ProjectionPhase[];
  /** From the last write of the facts' client until `GET /client/stats` showed every figure (NaN: not reached). */
  endToEndMs: number;
  endToEndPolls: number;
  counterRowBytes: { min: number; max: number };
  positionBytes: number;
  reads: StatsRead[];
  date: string;
  /** The CPU, its cores, the memory and Node.js the figures were measured on. */
  machine: string;
}

/** A record the projection applied, as heard. */
interface Heard extends CountedRecord {
  phase: string;
  appliedAt: number;
  writtenAt: number | undefined;
  streamAt: number;
  batch: number;
}

interface TappedTransaction {
  phase: string;
  keys: { pk: string; sk: string }[];
  /** The write units DynamoDB Local reported for it (ReturnConsumedCapacity TOTAL). */
  reported: number;
}

export async function runStatsBench(deps: StatsBenchDeps): Promise<StatsBenchRun> {
  const db = tableOf(getContainer()).db;
  let phase = 'idle';
  const tapped: TappedTransaction[] = [];
  const writes = new WriteLog();
  const untap = installTaps(db, (t, reported) => tapped.push({ phase, keys: t, reported }), writes);
  const heard: Heard[] = [];
  let batches = 0;
  const stop = deps.runtime.streams.onApplied(DAY_COUNTERS_PROJECTION, (records, at) => {
    batches += 1;
    let counted = false;
    for (const record of records) {
      const h = hear(record, at, phase, batches, writes);
      if (!h) continue;
      counted = true;
      heard.push(h);
    }
    if (!counted) batches -= 1;
  });
  try {
    await deps.runtime.streams.settled();
    console.log('Counters: the facts, one at a time (their writers, and the projection on a trickle)…');
    phase = 'facts';
    const facts = await recordFacts(deps);
    const endToEnd = await waitForFigures(deps, facts.client.key, facts.lastWriteAt);
    await deps.runtime.streams.settled();

    console.log(
      `Counters: the engine bench's mix (${ENGINE_WARM_UP} warm-up and ${MIX_EVENTS} events, ${MIX_CONCURRENCY} in flight)…`,
    );
    const capacity = deps.meter.capacity;
    deps.meter.capacity = undefined;
    phase = 'mix';
    try {
      await runEngineBench(
        {
          runtime: deps.runtime,
          counter: deps.counter,
          meter: deps.meter,
          send: deps.send,
          newClient: async (plan) => (await deps.newClient(plan)).key,
        },
        { events: MIX_EVENTS, concurrency: MIX_CONCURRENCY, deadlineMs: 180_000 },
      );
      await deps.runtime.streams.settled();
    } finally {
      deps.meter.capacity = capacity;
    }
    phase = 'idle';

    const sizes = await itemSizes(db, tableOf(getContainer()).tableName, tapped);
    const rowSizes = [...sizes.entries()].filter(([k]) => keys.isStatsPk(k.split('|')[0])).map(([, b]) => b);
    const positionBytes = Math.max(
      ...[...sizes.entries()].filter(([k]) => !keys.isStatsPk(k.split('|')[0])).map(([, b]) => b),
    );
    const phases = (['facts', 'mix'] as const).map((label) =>
      phaseOf(
        label === 'facts' ? 'facts one at a time' : `engine mix (${ENGINE_WARM_UP} + ${MIX_EVENTS} events)`,
        heard.filter((h) => h.phase === label),
        tapped.filter((t) => t.phase === label),
        sizes,
        positionBytes,
      ),
    );

    console.log('Counters: the stats read over 90 days…');
    const reads: StatsRead[] = [];
    for (const { label, plan } of READ_CLIENTS) reads.push(await measureRead(deps, label, plan));
    return {
      writers: facts.samples.map((s) => ({ fact: s.fact, where: s.where, cost: meanCost(s.runs) })),
      phases,
      endToEndMs: endToEnd.ms,
      endToEndPolls: endToEnd.polls,
      counterRowBytes: { min: Math.min(...rowSizes), max: Math.max(...rowSizes) },
      positionBytes,
      reads,
      date: new Date().toISOString().slice(0, 10),
      machine: `${cpus()[0]?.model ?? 'an unknown CPU'} × ${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node.js ${process.version}`,
    };
  } finally {
    stop();
    untap();
  }
}

/** A counted record as heard (undefined: the projection counts nothing for it). */
function hear(
  record: DynamoDBRecord,
  appliedAt: number,
  phase: string,
  batch: number,
  writes: WriteLog,
): Heard | undefined {
  const change = changeOfRecord(record);
  const deltas = change ? deltasOfChange(change) : [];
  if (!change || deltas.length === 0) return undefined;
  const streamAt = (record.dynamodb?.ApproximateCreationDateTime ?? Number.NaN) * 1000;
  const pk = record.dynamodb?.Keys?.['pk']?.S ?? '';
  const sk = record.dynamodb?.Keys?.['sk']?.S ?? '';
  // When it entered the stream, for batching as the mapping would: its write's completion (DynamoDB Local's
  // ApproximateCreationDateTime runs up to a minute behind, measured), else when it was applied.
  const writtenAt = writes.take(`${pk}|${sk}`, streamAt);
  return {
    fact: factClass(change.entity, deltas),
    at: writtenAt ?? appliedAt,
    rows: [...new Set(deltas.map(counterRowKey))],
    phase,
    appliedAt,
    writtenAt,
    streamAt,
    batch,
  };
}

/** A counted record's class: the event processed, or the counters its change adds to. */
function factClass(entity: string, deltas: readonly CounterDelta[]): string {
  if (entity === 'event') return 'event processed';
  const names = new Set<string>();
  for (const d of deltas)
    for (const [name, value] of Object.entries(d.counts ?? {})) if (value) names.add(value < 0 ? `${name} back` : name);
  return `${entity === 'execution' ? 'execution' : 'status log'}: ${[...names].join(' + ')}`;
}

/**
 * When each item was written, by key: every successful write request's completion time for each item it names. A
 * stream record is matched with the first write of its item not yet matched and not older than its stream second.
 */
class WriteLog {
  private readonly done = new Map<string, number[]>();

  add(key: string, at: number): void {
    const list = this.done.get(key) ?? [];
    list.push(at);
    this.done.set(key, list);
  }

  take(key: string, streamAt: number): number | undefined {
    const list = this.done.get(key);
    if (!list) return undefined;
    const floor = Number.isNaN(streamAt) ? -Infinity : Math.floor(streamAt / 1000) * 1000;
    while (list.length > 0 && list[0]! < floor) list.shift();
    return list.shift();
  }
}

type Key = { pk: string; sk: string };

type Doc = Record<string, unknown>;
/** The parts of a write request's input (document client: plain values) that name its items. */
interface WriteInput {
  Item?: Doc;
  Key?: Doc;
  RequestItems?: Record<string, { PutRequest?: { Item: Doc }; DeleteRequest?: { Key: Doc } }[]>;
  TransactItems?: { Put?: { Item: Doc }; Update?: { Key: Doc }; Delete?: { Key: Doc } }[];
  ReturnConsumedCapacity?: string;
}

/** The keys a write request names. */
function keysWritten(command: string, input: WriteInput): Key[] {
  const keyOf = (o: Doc | undefined): Key[] => (o ? [{ pk: String(o['pk']), sk: String(o['sk']) }] : []);
  switch (command) {
    case 'PutItemCommand':
      return keyOf(input.Item);
    case 'UpdateItemCommand':
    case 'DeleteItemCommand':
      return keyOf(input.Key);
    case 'BatchWriteItemCommand':
      return Object.values(input.RequestItems ?? {}).flatMap((requests) =>
        requests.flatMap((r) => keyOf(r.PutRequest?.Item ?? r.DeleteRequest?.Key)),
      );
    case 'TransactWriteItemsCommand':
      return (input.TransactItems ?? []).flatMap((item) =>
        keyOf(item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key),
      );
    default:
      return [];
  }
}

/**
 * Two taps on the container's DynamoDB client: the projection's transactions (their first item is the stream
 * position of the day-counters projection), and the completion time of every write, for the lag. Returns their removal.
 */
function installTaps(
  db: DynamoDBDocumentClient,
  onProjection: (keys: Key[], reported: number) => void,
  writes: WriteLog,
): () => void {
  const positionPrefix = keys.streamPosition(DAY_COUNTERS_PROJECTION, '').pk;
  const name = 'benchStatsTaps';
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName ?? '');
      const input = args.input as WriteInput;
      const written = keysWritten(command, input);
      const projection = command === 'TransactWriteItemsCommand' && written[0]?.pk.startsWith(positionPrefix) === true;
      if (projection) input.ReturnConsumedCapacity ??= 'TOTAL';
      const out = await next(args);
      const at = Date.now();
      for (const k of written) writes.add(`${k.pk}|${k.sk}`, at);
      if (projection) {
        const consumed = (out.output as { ConsumedCapacity?: { CapacityUnits?: number }[] }).ConsumedCapacity ?? [];
        onProjection(
          written,
          consumed.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0),
        );
      }
      return out;
    },
    { step: 'initialize', name, priority: 'high' },
  );
  return () => {
    db.middlewareStack.remove(name);
  };
}

/** The sizes of the items the projection wrote, as the run left them (the largest each was: rows only grow). */
async function itemSizes(
  db: DynamoDBDocumentClient,
  tableName: string,
  transactions: readonly TappedTransaction[],
): Promise<Map<string, number>> {
  const all = new Map<string, Key>();
  for (const t of transactions) for (const k of t.keys) all.set(`${k.pk}|${k.sk}`, k);
  const sizes = new Map<string, number>();
  const list = [...all.values()];
  for (let i = 0; i < list.length; i += 100) {
    let request: Record<string, { Keys: Key[] }> | undefined = { [tableName]: { Keys: list.slice(i, i + 100) } };
    while (request && Object.keys(request).length > 0) {
      const out = await db.send(new BatchGetCommand({ RequestItems: request }));
      for (const item of out.Responses?.[tableName] ?? []) sizes.set(`${item['pk']}|${item['sk']}`, itemBytes(item));
      request = out.UnprocessedKeys as Record<string, { Keys: Key[] }> | undefined;
    }
  }
  return sizes;
}

function lagOf(values: readonly number[]): LagFigures {
  return {
    n: values.length,
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    max: values.length === 0 ? Number.NaN : Math.max(...values),
  };
}

function phaseOf(
  label: string,
  heard: readonly Heard[],
  tapped: readonly TappedTransaction[],
  sizes: ReadonlyMap<string, number>,
  positionBytes: number,
): ProjectionPhase {
  const sizeOf = (key: string) => sizes.get(key) ?? 0;
  // A tapped transaction's facts are not named on the wire: the phase's facts are spread over its transactions' units.
  const localUnits = tapped.reduce(
    (sum, t) => sum + t.keys.reduce((s, k) => s + writeUnits(sizeOf(`${k.pk}|${k.sk}`), true), 0),
    0,
  );
  const local = projectionCost([
    {
      facts: heard.map((h) => h.fact),
      itemBytes: tapped.flatMap((t) => t.keys.map((k) => sizeOf(`${k.pk}|${k.sk}`))),
    },
  ]);
  local.transactions = tapped.length;
  if (local.wcu !== localUnits) throw new Error(`projection units disagree: ${local.wcu} and ${localUnits}`);
  // A row key of the rule (counterRowKey) sized by the row it names.
  const rowBytes = (row: string) => {
    const [client, day, id] = row.split('#') as [string, string, string];
    const key = id.startsWith('W')
      ? keys.statsWorkflowDay(Number(client), day, Number(id.slice(1)))
      : keys.statsEventTypeDay(Number(client), day, id.slice(1));
    return sizeOf(`${key.pk}|${key.sk}`);
  };
  const priced = (batches: readonly (readonly Heard[])[]): ProjectionTransaction[] =>
    batches.flatMap((b) => transactionsOf(b, rowBytes, positionBytes));
  return {
    label,
    records: heard.length,
    localBatches: new Set(heard.map((h) => h.batch)).size,
    lagFromWrite: lagOf(heard.filter((h) => h.writtenAt !== undefined).map((h) => h.appliedAt - h.writtenAt!)),
    lagFromStream: lagOf(heard.filter((h) => !Number.isNaN(h.streamAt)).map((h) => h.appliedAt - h.streamAt)),
    local,
    localReportedWcu: tapped.reduce((sum, t) => sum + t.reported, 0),
    aws: projectionCost(priced(batchesOf(heard, MAPPING_BATCH, MAPPING_WINDOW_MS))),
    trickle: projectionCost(priced(heard.map((h) => [h]))),
  };
}

/** The figures the facts' client must show once every fact is counted (the warm-up contact's e-mail included). */
const EXPECTED_TOTALS = {
  executions: 3,
  sent: 3,
  delivered: 3,
  opened: 1,
  clicked: 1,
  bounced_hard: 1,
  unsubscribed_suppression: 1,
  unsubscribed_link: 1,
} as const;

/** Polls `GET /client/stats` until it shows every expected figure; the time from the last write. */
async function waitForFigures(
  deps: StatsBenchDeps,
  key: string,
  lastWriteAt: number,
): Promise<{ ms: number; polls: number }> {
  let polls = 0;
  while (Date.now() - lastWriteAt < END_TO_END_DEADLINE_MS) {
    polls += 1;
    const res = await deps.send('GET', '/client/stats', key, {});
    if (res.status !== 200) throw new Error(`GET /client/stats answered ${res.status}`);
    const totals = res.body.data.totals as Record<string, number>;
    if (Object.entries(EXPECTED_TOTALS).every(([name, n]) => totals[name] === n))
      return { ms: Date.now() - lastWriteAt, polls };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { ms: Number.NaN, polls };
}

/**
 * On a fresh client: a warm-up contact (its event and e-mail fill the configuration caches, not measured), then two
 * contacts each get a `trial_ending` event (one immediate e-mail) — their processing, send, SES Send and Delivery;
 * contact A's e-mail is opened and clicked by a person, then one-click unsubscribed; contact B's hard-bounces.
 */
async function recordFacts(
  deps: StatsBenchDeps,
): Promise<{ samples: Samples[]; client: { id: number; key: string }; lastWriteAt: number }> {
  const client = await deps.newClient(FACTS_PLAN);
  const tag = `stats-${randomUUID().slice(0, 8)}`;
  const address = (name: string) => `${tag}-${name}@example.com`;
  for (const name of ['warm', 'a', 'b']) {
    const res = await deps.send('POST', '/client/contacts', client.key, {
      json: { email: address(name), first_name: name },
    });
    if (res.status !== 201)
      throw new Error(`POST /client/contacts answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
  await sendEvent(deps, client.key, address('warm'));
  await settle(deps);

  deps.meter.reset();
  for (const name of ['a', 'b']) {
    await sendEvent(deps, client.key, address(name));
    await settle(deps);
  }
  const [a, b] = await sentEmails(deps, client.key, [address('a'), address('b')]);
  const delivered = (e: SentEmail) => e.logs.find((l) => l.status === 3)?.created_at ?? new Date().toISOString();
  await inject(
    deps,
    sesEvent('Open', a!, later(delivered(a!), 30 * MINUTE_MS), { open: { userAgent: HUMAN_UA, ipAddress: HUMAN_IP } }),
  );
  await inject(
    deps,
    sesEvent('Click', a!, later(delivered(a!), 32 * MINUTE_MS), {
      click: { userAgent: HUMAN_UA, ipAddress: HUMAN_IP, link: 'https://example.com/pricing', linkTags: {} },
    }),
  );
  const bounceAt = later(delivered(b!), MINUTE_MS);
  await inject(
    deps,
    sesEvent('Bounce', b!, bounceAt, {
      bounce: {
        bounceType: 'Permanent',
        bounceSubType: 'General',
        bouncedRecipients: [
          {
            emailAddress: b!.to_email,
            action: 'failed',
            status: '5.1.1',
            diagnosticCode: 'smtp; 550 5.1.1 user unknown',
          },
        ],
        feedbackId: `${randomUUID()}-000000`,
        reportingMTA: 'dns; a8-70.smtp-out.amazonses.com',
      },
    }),
  );
  const unsubscribe = await oneClickUnsubscribe(deps, a!);
  const lastWriteAt = Date.now();

  const deliveries = deps.meter.deliveries;
  const bad = deliveries.filter((d) => d.failed || d.receiveCount > 1);
  if (bad.length > 0)
    console.warn(
      `  ${bad.length} failed or repeated deliveries left out: ${JSON.stringify(bad.map((d) => [d.queue, d.kind]))}`,
    );
  const runs = (pick: (d: MeteredDelivery) => boolean) =>
    deliveries.filter((d) => pick(d) && !d.failed && d.receiveCount === 1).map(runOf);
  const samples: Samples[] = [
    {
      fact: 'event processed',
      where: 'processing commit (the event item, its executions)',
      runs: runs((d) => d.queue === 'events'),
    },
    { fact: 'send (claim)', where: 'claim transaction and the e-mail', runs: runs((d) => d.queue === 'workflow') },
    {
      fact: 'SES Send notification',
      where: 'status log (not a counted fact)',
      runs: runs((d) => d.kind === 'Send'),
    },
    {
      fact: 'delivery notification',
      where: 'notification (its status log)',
      runs: runs((d) => d.kind === 'Delivery'),
    },
    {
      fact: 'human open',
      where: 'notification transaction (status log, first-open marker)',
      runs: runs((d) => d.kind === 'Open'),
    },
    {
      fact: 'human click',
      where: 'notification transaction (status log, first-click marker)',
      runs: runs((d) => d.kind === 'Click'),
    },
    {
      fact: 'hard bounce',
      where: 'notification transaction (status log, suppression)',
      runs: runs((d) => d.kind === 'Bounce'),
    },
    { fact: 'one-click unsubscribe', where: 'unsubscribe transaction (contact, log by the link)', runs: [unsubscribe] },
  ];
  for (const s of samples) if (s.runs.length === 0) throw new Error(`no measured run of "${s.fact}"`);
  return { samples, client, lastWriteAt };
}

const runOf = (d: MeteredDelivery) => ({
  requests: d.dynamo.requests,
  capacity: d.capacity ?? noCapacity(),
  byCommand: d.dynamo.by_command,
});

async function sendEvent(deps: StatsBenchDeps, key: string, email: string): Promise<void> {
  const res = await deps.send('POST', '/client/events', key, { json: { type: EVENT_TYPE, email } });
  if (res.status !== 202) throw new Error(`POST /client/events answered ${res.status}: ${JSON.stringify(res.body)}`);
}

/** Waits until the queues are idle and the status queue empty (the local SES publishes a Delivery a second late). */
async function settle(deps: StatsBenchDeps): Promise<void> {
  const queue = deps.runtime.engine.queue;
  const deadline = performance.now() + 30_000;
  do {
    await queue.idle(Math.max(1_000, deadline - performance.now()));
    if (queue.depth('ses-status') > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  } while (queue.depth('ses-status') > 0 && performance.now() < deadline);
}

interface SentEmail {
  id: string;
  client_id: number;
  execution_id: number;
  from_email: string;
  to_email: string;
  provider_message_id: string;
  created_at: string;
  html_body: string;
  status: number;
  logs: { status: number; created_at: string }[];
}

/** The e-mails sent to these addresses (in their order), delivered. */
async function sentEmails(deps: StatsBenchDeps, key: string, addresses: string[]): Promise<SentEmail[]> {
  const list = await deps.send('GET', '/client/executions?status=3&per_page=100', key, {});
  const emails: SentEmail[] = [];
  for (const execution of list.body.data.executions as { sent_email_id: string | null }[]) {
    if (!execution.sent_email_id) continue;
    const res = await deps.send('GET', `/client/sent-emails/${execution.sent_email_id}`, key, {});
    emails.push(res.body.data as SentEmail);
  }
  return addresses.map((to) => {
    const found = emails.find((e) => e.to_email === to);
    if (!found || found.status !== 3) throw new Error(`no delivered e-mail to ${to} (status ${found?.status})`);
    return found;
  });
}

const later = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/** An SES event-publishing record of `email` (docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-contents.html). */
function sesEvent(
  eventType: string,
  email: SentEmail,
  timestamp: string,
  detail: Record<string, Record<string, unknown>>,
) {
  const [field, body] = Object.entries(detail)[0]!;
  return {
    eventType,
    mail: {
      messageId: email.provider_message_id,
      timestamp: email.created_at,
      source: email.from_email,
      destination: [email.to_email],
      tags: {
        client_id: [String(email.client_id)],
        execution_id: [String(email.execution_id)],
        sent_email_id: [email.id],
      },
    },
    [field]: { ...body, timestamp },
  };
}

/** Through `POST /dev/ses-events` (an SNS envelope), as SES's notifications arrive; waits until it was handled. */
async function inject(deps: StatsBenchDeps, event: object): Promise<void> {
  const envelope = {
    Type: 'Notification',
    MessageId: randomUUID(),
    Message: JSON.stringify(event),
    Timestamp: new Date().toISOString(),
  };
  const res = await deps.send('POST', '/dev/ses-events', '', { json: envelope });
  if (res.status !== 202) throw new Error(`POST /dev/ses-events answered ${res.status}: ${JSON.stringify(res.body)}`);
  await settle(deps);
}

/** The one-click unsubscribe of the e-mail's `/u/{token}` link: the route's domain call, measured on its own. */
async function oneClickUnsubscribe(deps: StatsBenchDeps, email: SentEmail): Promise<Samples['runs'][number]> {
  const token = /\/u\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/.exec(email.html_body)?.[1];
  if (!token) throw new Error(`no unsubscribe link in e-mail ${email.id}`);
  const routeDeps = getContainer().resolve([sentEmailStore, contactStore, unsubscribeStore, clock, linkSecret]);
  const secret = await routeDeps.linkSecret.value();
  const { result, capacity } = await deps.capacity.measure(() =>
    deps.counter.measure(() => unsubscribeByLink(routeDeps, secret, token)),
  );
  if (!result.result) throw new Error(`the unsubscribe link of e-mail ${email.id} was refused`);
  return { requests: result.usage.requests, capacity, byCommand: result.usage.by_command };
}

/**
 * The 90-day read on a client of `plan` whose rows were written directly: every catalog workflow and event type on each
 * of the 90 days, in the one partition the projection writes (the most rows the catalog can leave in 90 days).
 */
async function measureRead(deps: StatsBenchDeps, label: string, plan: SubscriptionPlan['tier']): Promise<StatsRead> {
  const client = await deps.newClient(plan);
  const { db, tableName } = tableOf(getContainer());
  const to = new Date();
  const days = Array.from({ length: STATS_DAYS }, (_, i) =>
    new Date(to.getTime() - i * 86_400_000).toISOString().slice(0, 10),
  );
  const expires = Math.floor(to.getTime() / 1000) + 400 * 86_400;
  const rows: Record<string, unknown>[] = [];
  for (const [d, day] of days.entries()) {
    for (const workflow of WORKFLOWS) {
      const counts = Object.fromEntries(STAT_COUNTERS.map((name, i) => [name, 10 + ((i * 7 + d) % 90)]));
      rows.push({
        ...keys.statsWorkflowDay(client.id, day, workflow.id),
        ...counts,
        'skip:unsubscribed': 3,
        'fail:render': 1,
        workflow_id: workflow.id,
        day,
        expires_at: expires,
      });
    }
    for (const type of EVENT_TYPES) {
      rows.push({
        ...keys.statsEventTypeDay(client.id, day, type),
        received: 100 + d,
        event_type: type,
        day,
        expires_at: expires,
      });
    }
  }
  for (let i = 0; i < rows.length; i += 25) {
    const puts = rows.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    const out = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: puts } }));
    if (Object.keys(out.UnprocessedItems ?? {}).length > 0)
      throw new Error('seeding the stats rows left unprocessed items');
  }
  const from = days.at(-1)!;
  const today = days[0]!;
  const statsDeps = getContainer().resolve([statsStore, clock]);
  const { result, capacity } = await deps.capacity.measure(() =>
    deps.counter.measure(() => getStats(statsDeps, { clientId: client.id }, { from, to: today, granularity: 'day' })),
  );
  const view = result.result;
  if (view.series.length !== STATS_DAYS) throw new Error(`the 90-day read answered ${view.series.length} days`);
  // DynamoDB's rule for a Query: the returned items' sizes summed, rounded up to 4 KB, 0.5 RCU each (eventually consistent).
  const bytes = rows.reduce((sum, row) => sum + itemBytes(row), 0);
  const rcuByRule = Math.ceil(bytes / 4096) * 0.5;

  // The route over HTTP: once to warm its authentication, then measured on the container's counter (the queues are
  // idle and the stream settled, so nothing else runs meanwhile).
  const path = `/client/stats?from=${from}&to=${today}`;
  await deps.send('GET', path, client.key, {});
  await deps.runtime.streams.settled();
  deps.counter.reset();
  const res = await deps.send('GET', path, client.key, {});
  if (res.status !== 200) throw new Error(`GET /client/stats answered ${res.status}`);
  const route = { requests: deps.counter.total, byCommand: deps.counter.snapshot() };
  return {
    label,
    plan,
    rows: rows.length,
    rowBytes: Math.round(bytes / rows.length),
    ...usageOf(result.usage),
    rcu: capacity.read,
    rcuByRule,
    route,
  };
}

const usageOf = (usage: RequestUsage) => ({
  requests: usage.requests,
  waves: usage.waves,
  byCommand: usage.by_command,
});

// ---------------------------------------------------------------------------------------------------------------
// Report

const num = (n: number) => (Number.isNaN(n) ? '–' : Number.isInteger(n) ? String(n) : n.toFixed(2));
const ms = (n: number) => (Number.isNaN(n) ? '–' : `${Math.round(n)} ms`);
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
const commands = (byCommand: Record<string, number>) =>
  Object.entries(byCommand)
    .map(([c, n]) => `${c.replace(/Command$/, '')} ${n}`)
    .join(', ');

const WRITER_HEADER = [
  'fact',
  'its operation writes',
  'runs',
  'requests',
  'table WCU (rule)',
  'WCU reported',
  'counter requests',
  'counter items',
  'counter WCU',
  'no counter write',
];

function writerRows(run: StatsBenchRun): string[][] {
  return run.writers.map((w) => [
    w.fact,
    w.where,
    String(w.cost.samples),
    num(w.cost.requests),
    num(w.cost.wcu),
    num(w.cost.reportedWcu),
    num(w.cost.counterRequests),
    num(w.cost.counterItems),
    num(w.cost.counterWcu),
    met(writerMeets(w.cost)),
  ]);
}

const LAG_HEADER = ['phase', 'counted records', 'local batches', 'n (write matched)', 'p50', 'p95', 'p99', 'max'];

function lagRows(run: StatsBenchRun): string[][] {
  return run.phases.map((p) => [p.label, String(p.records), String(p.localBatches), ...lagCells(p.lagFromWrite)]);
}

const lagCells = (l: LagFigures) => [String(l.n), ms(l.p50), ms(l.p95), ms(l.p99), ms(l.max)];

const COST_HEADER = [
  'phase',
  'batched',
  'facts',
  'transactions',
  'items',
  'WCU (rule)',
  'WCU a fact',
  `≤ ${COUNTER_TARGETS.projectionWcuPerFact}`,
];

function costRows(run: StatsBenchRun): string[][] {
  return run.phases.flatMap((p) =>
    (
      [
        ['as the local poller handed it (100 ms polls)', p.local],
        [`as the mapping would (${MAPPING_BATCH} records or ${MAPPING_WINDOW_MS / 1000} s, one shard)`, p.aws],
        ['one fact a batch (trickle)', p.trickle],
      ] as const
    ).map(([how, c]) => [
      p.label,
      how,
      String(c.facts),
      String(c.transactions),
      String(c.items),
      num(c.wcu),
      num(c.wcuPerFact),
      met(c.meets),
    ]),
  );
}

const CLASS_HEADER = ['fact class', 'facts (mix)', 'WCU a fact, mix as the mapping batches', 'WCU a fact, trickle'];

function classRows(run: StatsBenchRun): string[][] {
  const all = new Map<string, { mix?: ProjectionCost['byFact'][string]; trickle?: ProjectionCost['byFact'][string] }>();
  const mix = run.phases.find((p) => p.label.startsWith('engine mix'));
  const facts = run.phases.find((p) => p.label.startsWith('facts'));
  for (const [name, f] of Object.entries(mix?.aws.byFact ?? {})) all.set(name, { ...all.get(name), mix: f });
  for (const p of [facts, mix])
    for (const [name, f] of Object.entries(p?.trickle.byFact ?? {})) all.set(name, { ...all.get(name), trickle: f });
  return [...all.entries()].map(([name, c]) => [
    name,
    String(c.mix?.facts ?? 0),
    c.mix ? num(c.mix.wcuPerFact) : '–',
    c.trickle ? num(c.trickle.wcuPerFact) : '–',
  ]);
}

const READ_HEADER = [
  'client',
  'plan',
  'rows in 90 days',
  'bytes a row',
  'requests (getStats)',
  'by command',
  'RCU reported',
  'RCU by rule',
  'route `GET /client/stats`',
  `≤ ${COUNTER_TARGETS.readRequests} request`,
];

function readRows(run: StatsBenchRun): string[][] {
  return run.reads.map((r) => [
    r.label,
    r.plan,
    String(r.rows),
    String(r.rowBytes),
    String(r.requests),
    commands(r.byCommand),
    num(r.rcu),
    num(r.rcuByRule),
    `${r.route.requests}: ${commands(r.route.byCommand)}`,
    met(r.requests <= COUNTER_TARGETS.readRequests),
  ]);
}

export function printStats(run: StatsBenchRun): void {
  const print = (title: string, header: string[], rows: string[][]) => {
    console.log(`\n${title}`);
    console.table(rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]]))));
  };
  print("Day counters: each fact's own operation (it must write no counter)", WRITER_HEADER, writerRows(run));
  print('The projection: write units per counted fact', COST_HEADER, costRows(run));
  print('…per fact class', CLASS_HEADER, classRows(run));
  print('Lag: until the projection applied each counted record', LAG_HEADER, lagRows(run));
  console.log(
    `End to end: ${ms(run.endToEndMs)} from the last write until GET /client/stats showed it (${run.endToEndPolls} polls)`,
  );
  print('Stats read, 90 days', READ_HEADER, readRows(run));
}

const table = (header: string[], rows: string[][]) =>
  [header, header.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');

export const STATS_START = '<!-- counters:begin -->';
export const STATS_END = '<!-- counters:end -->';
export const STATS_TITLE = '## Day counters';

/** The counters' section of docs/benchmarks.md, between its markers. */
export function statsMarkdown(run: StatsBenchRun): string {
  const counted = run.writers.filter((w) => w.fact !== 'SES Send notification');
  const writersMet = run.writers.every((w) => writerMeets(w.cost));
  const mix = run.phases.find((p) => p.label.startsWith('engine mix'))!;
  const facts = run.phases.find((p) => p.label.startsWith('facts'))!;
  const lag = (p: ProjectionPhase) =>
    `p50 ${ms(p.lagFromWrite.p50)}, p95 ${ms(p.lagFromWrite.p95)}, p99 ${ms(p.lagFromWrite.p99)}, max ${ms(p.lagFromWrite.max)}`;
  const trickleMin = Math.min(...Object.values(facts.trickle.byFact).map((f) => f.wcuPerFact));
  const trickleMax = Math.max(...Object.values(facts.trickle.byFact).map((f) => f.wcuPerFact));
  const readsMet = run.reads.every((r) => r.requests <= COUNTER_TARGETS.readRequests);
  return `${STATS_START}
Written by \`npm run bench\` (part \`BENCH_ONLY=stats\`, scripts/bench/stats.ts) on ${run.date}, on the local runtime
(DynamoDB Local, its stream read by the local poller), on ${run.machine}.

The day counters are a projection of the table's change stream (functions/stream/day-counters.ts): the facts'
writers write no counter; the projection sums a batch's counted records per day row and writes each chunk of at most
99 rows in one \`TransactWriteItems\` with the stream shard's position. So the figures below are what a fact's own
operation writes, what the projection spends per fact, how far the counts lag the facts, and the read.

**Fact writers.** Each counted fact once, on a fresh client of the engine bench's plan (a warm-up e-mail first, so the
configuration caches are warm): two \`trial_ending\` events (processing, send, SES Send and Delivery), a person's
open and click of one e-mail, then its one-click unsubscribe; a permanent bounce of the other. A fact's figures are
those of the operation that records it: the queue function's run (process-events, execute-workflow, ses-status) or the
route's domain call (\`unsubscribeByLink\`). Requests are counted by the SDK middleware; write units by DynamoDB's
rule, item by item (each named item read before and after, 1 WCU per started KB of the larger image, twice in a
transaction) beside what DynamoDB Local reports; a counter item is any item of a \`STATS#\` partition
(\`keys.isStatsPk\`).

${table(WRITER_HEADER, writerRows(run))}

- **No counter write from a fact's operation: ${met(writersMet)}** (${counted.length} counted facts and the SES Send control):
  0 requests and 0 write units on counter rows. What a fact costs its writer is now only the fact itself.

**The projection's write units.** Every record the projection applied is heard through the local poller's
\`onApplied\` hook and classed by what it counts; its transactions are tapped on the runtime's DynamoDB client. Units
are **computed by DynamoDB's rule for transactions** (2 WCU per started KB of each item: the position item,
${run.positionBytes} bytes, and each day row, ${run.counterRowBytes.min}–${run.counterRowBytes.max} bytes as the run left them, the largest they were),
because DynamoDB Local's transaction figures do not follow it (measured below: 2 WCU a transaction, whatever its items). Three
batchings of the same records: as the local poller handed them over (it polls every 100 ms, so its batches are small),
as the AWS mapping would form them (functions/streams.ts: ${MAPPING_BATCH} records or a ${MAPPING_WINDOW_MS / 1000} s batching window,
whichever comes first; all records on one stream shard, as DynamoDB Local has one), and one record a batch (the trickle).
"Facts one at a time" is the writers' run above, each fact waited for; the mix is the engine bench's flow
(its ${ENGINE_WARM_UP} warm-up and ${MIX_EVENTS} measured \`trial_ending\` events, ${MIX_CONCURRENCY} requests in flight: each an event processed, a claim
and a delivery, so three counted records an event).

${table(COST_HEADER, costRows(run))}

Per fact class (a transaction's units split evenly over the facts it applied):

${table(CLASS_HEADER, classRows(run))}

- **≤ ${COUNTER_TARGETS.projectionWcuPerFact} WCU a fact, the mix as the mapping batches it: ${met(mix.aws.meets)}** (${num(mix.aws.wcuPerFact)}): a batch's facts land on a
  few day rows (one per workflow and one per event type a day), so a 10-second batch of hundreds of facts writes a few
  rows and one position.
- **The trickle: ${met(facts.trickle.meets)}** (${num(trickleMin)}–${num(trickleMax)} WCU a fact, ${num(facts.trickle.wcuPerFact)} overall). A batch holding one fact writes the position
  and that fact's one or two rows, each a transactional write (2 WCU): 4 to 6 WCU for one fact. Amortising needs
  facts to share a batch, and the batching window (${MAPPING_WINDOW_MS / 1000} s) is what gathers them: a client sending less than a fact
  every ${MAPPING_WINDOW_MS / 1000} seconds on a stream shard pays the trickle's price, 4 to 6 WCU a fact (at most 36 WCU a minute
  on that shard at one fact every ${MAPPING_WINDOW_MS / 1000} s), and the target is met as soon as four to six facts of a workflow share a batch.
- As the local poller batched them: ${num(mix.local.wcuPerFact)} WCU a fact for the mix, ${num(facts.local.wcuPerFact)} for the facts one at a time (its 100 ms polls
  make smaller batches than the mapping's window). DynamoDB Local reported ${num(mix.localReportedWcu)} WCU for the mix's
  ${mix.local.transactions} transactions where the rule gives ${num(mix.local.wcu)}, and ${num(facts.localReportedWcu)} for the facts' ${facts.local.transactions} where it gives ${num(facts.local.wcu)}: its transaction
  figures do not follow the rule, so they price nothing here.

**Lag.** For each counted record, from the completion of the write that made it (the tapped request that wrote its
item, matched with the item's records in stream order) until the projection had applied it (the \`onApplied\` hook).
Not from the record's \`ApproximateCreationDateTime\`: DynamoDB Local's runs behind the write (measured here: the
applied time minus it reads p50 ${ms(mix.lagFromStream.p50)}, max ${ms(mix.lagFromStream.max)} in the mix, where the write's completion gives ${ms(mix.lagFromWrite.max)} at most).

${table(LAG_HEADER, lagRows(run))}

- Locally, from the write: facts one at a time ${lag(facts)}; the mix ${lag(mix)}, measured while
  the engine's ${MIX_CONCURRENCY} requests in flight and its queue functions shared the machine's cores with the poller.
- **End to end**: ${ms(run.endToEndMs)} from the last write of the facts' client (its one-click unsubscribe) until
  \`GET /client/stats\` showed every figure of its facts (${run.endToEndPolls} polls, 20 ms apart).
- On AWS add the mapping's batching window: up to ${MAPPING_WINDOW_MS / 1000} s while a batch fills (a busy shard fills ${MAPPING_BATCH} records sooner),
  plus Lambda's stream polling (about a second); the IteratorAge alarm pages at 5 minutes.

**Stats read, 90 days.** \`GET /client/stats\` runs \`getStats\`: one Query of the client's one partition
(\`STATS#<client>#0\`), whatever its plan. Rows written directly for a 90-day range: every catalog workflow
(${WORKFLOWS.length}) and event type (${EVENT_TYPES.length}) each day, the most rows the catalog can leave. Read units as DynamoDB Local reports them
(an eventually consistent Query) and by the rule (the returned rows summed, 0.5 RCU per started 4 KB).

${table(READ_HEADER, readRows(run))}

- **One request for every client: ${met(readsMet)}**; the route adds what every API request costs (authentication, cached, and
  the rate-limit count).
${STATS_END}`;
}
