import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { LocalRuntime } from '../../local/runtime.js';
import type { RequestCounter, RequestUsage } from '../../shared/adapters/dynamo/request-counter.js';
import { DynamoDeliveryStore } from '../../shared/adapters/dynamo/delivery-store.js';
import { DynamoExecutionStore } from '../../shared/adapters/dynamo/execution-store.js';
import { keys } from '../../shared/adapters/dynamo/keys.js';
import { DynamoProcessingStore } from '../../shared/adapters/dynamo/processing-store.js';
import { StatsItems } from '../../shared/adapters/dynamo/stats-items.js';
import { DynamoTrackingStore } from '../../shared/adapters/dynamo/tracking-store.js';
import { DynamoUnsubscribeStore } from '../../shared/adapters/dynamo/unsubscribe-store.js';
import { getContainer, type Container } from '../../shared/composition/container.js';
import type { Ports } from '../../shared/composition/port-registry.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { configCacheOf } from '../../shared/composition/providers/config-cache.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { linkSecret } from '../../shared/composition/providers/link-secret.js';
import { sentEmailStore } from '../../shared/composition/providers/sent-email-store.js';
import { statsStore } from '../../shared/composition/providers/stats-store.js';
import { tableOf } from '../../shared/composition/providers/table.js';
import { unsubscribeStore } from '../../shared/composition/providers/unsubscribe-store.js';
import { unsubscribeByLink } from '../../shared/domain/links/public-links.js';
import { getStats } from '../../shared/domain/stats/get-stats.js';
import {
  clientStatsShardsOf,
  STAT_COUNTERS,
  STATS_SHARD_COUNT,
  statsReadShardsOf,
  statsShardOf,
} from '../../shared/domain/stats/stats-counters.js';
import type { SubscriptionPlan } from '../../shared/domain/plans/catalog.js';
import { WORKFLOWS } from '../../shared/domain/workflows/catalog.js';
import type { CapacityMeter } from './capacity-meter.js';
import type { EngineMeter, MeteredDelivery } from './engine-meter.js';
import type { Send } from './scenarios.js';
import {
  COUNTER_TARGETS,
  itemBytes,
  meanCost,
  noCapacity,
  verdictOf,
  writeUnits,
  type Capacity,
  type FactCost,
} from './stats-cost.js';

/**
 * The counters' bench (`BENCH_ONLY=stats`): what the day counters cost. The same facts are recorded
 * twice on the local runtime — once as the service runs, once with stores built by `StatsItems` with counting off (the
 * stores then send exactly what they would without counters) — and each fact's operation is measured the same way:
 * the queue function's run that handles it (process-events, execute-workflow, ses-status) or the domain call (the
 * one-click unsubscribe), its DynamoDB requests (RequestCounter) and the capacity units DynamoDB Local reports for
 * them (ReturnConsumedCapacity). Then the stats read over 90 days: requests, waves, read units.
 */

const EVENT_TYPE = 'trial_ending';
/** The facts' client: the engine bench's plan (growth: 20 000 e-mails a day, so its counters are on 16 shards). */
const FACTS_PLAN: SubscriptionPlan['tier'] = 'growth';
/** The 90-day read: a client on the default plan (never sharded: one shard) and one on the largest (16 shards). */
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

export interface StatsBenchDeps {
  runtime: LocalRuntime;
  meter: EngineMeter;
  capacity: CapacityMeter;
  counter: RequestCounter;
  send: Send;
  /** A fresh client on `plan` (default: the engine bench's plan, growth). */
  newClient(plan?: SubscriptionPlan['tier']): Promise<{ id: number; key: string }>;
  /** Puts a container with these stores in place of the providers' on the runtime; returns the undo. */
  withStores(stores: (container: Container) => Partial<Ports>): () => void;
}

/** One fact's measured samples in one mode. */
interface Samples {
  fact: string;
  where: string;
  runs: { requests: number; capacity: Capacity; byCommand: Record<string, number> }[];
}

export interface StatsRead {
  label: string;
  plan: string;
  /** The shards its read covers (statsReadShardsOf the client). */
  shards: number;
  rows: number;
  rowBytes: number;
  /** getStats (the domain call the route runs): its DynamoDB requests and read units. */
  requests: number;
  waves: number;
  byCommand: Record<string, number>;
  rcu: number;
  /** The read units DynamoDB's rules give for the rows each shard's Query returns (0.5 per 4 KB, eventually consistent). */
  rcuByRule: number;
  /** The whole route over HTTP (`GET /client/stats`), authentication cached: requests by command. */
  route: { requests: number; byCommand: Record<string, number> };
}

export interface StatsBenchRun {
  facts: FactCost[];
  /** A day-counter row as the run left it, with its size and its write units by DynamoDB's rules. */
  counterRow: { bytes: number; wcuInTransaction: number; wcuAlone: number };
  reads: StatsRead[];
  date: string;
}

export async function runStatsBench(deps: StatsBenchDeps): Promise<StatsBenchRun> {
  console.log('Counters: the same facts with the day counters (as the service runs)…');
  const withCounters = await recordFacts(deps, 'with');
  console.log('Counters: …and with stores that do not count (StatsItems counting: false)…');
  const restore = deps.withStores(uncountedStores);
  let withoutCounters: Samples[];
  try {
    withoutCounters = (await recordFacts(deps, 'without')).samples;
  } finally {
    restore();
  }
  const facts = withCounters.samples.map((w, i): FactCost => {
    const wo = withoutCounters[i]!;
    return { fact: w.fact, where: w.where, with: meanCost(w.runs), without: meanCost(wo.runs) };
  });
  const db = tableOf(getContainer()).db;
  const row = await readCounterRow(db, withCounters.claimRow);
  console.log('Counters: the stats read over 90 days…');
  const reads: StatsRead[] = [];
  for (const { label, plan } of READ_CLIENTS) reads.push(await measureRead(deps, label, plan));
  return {
    facts,
    counterRow: {
      bytes: itemBytes(row),
      wcuInTransaction: writeUnits(itemBytes(row), true),
      wcuAlone: writeUnits(itemBytes(row), false),
    },
    reads,
    date: new Date().toISOString().slice(0, 10),
  };
}

/** The stores that record facts, built on `StatsItems` with counting off (measurement only). */
function uncountedStores(c: Container): Partial<Ports> {
  const { db, tableName } = tableOf(c);
  const stats = new StatsItems(tableName, c.config.STATS_RETENTION_DAYS, { counting: false });
  return {
    processing: new DynamoProcessingStore(db, tableName, configCacheOf(c), stats),
    executions: new DynamoExecutionStore(db, tableName, stats),
    delivery: new DynamoDeliveryStore(db, tableName, configCacheOf(c), stats),
    tracking: new DynamoTrackingStore(db, tableName, stats),
    unsubscribe: new DynamoUnsubscribeStore(db, tableName, stats),
  };
}

/**
 * On a fresh client: a warm-up contact (its event and e-mail fill the configuration caches, not measured), then two
 * contacts each get a `trial_ending` event (one immediate e-mail) — their processing, send, SES Send and Delivery;
 * contact A's e-mail is opened and clicked by a person, then one-click unsubscribed; contact B's hard-bounces.
 */
async function recordFacts(deps: StatsBenchDeps, mode: string): Promise<{ samples: Samples[]; claimRow: ClaimRow }> {
  const client = await deps.newClient(FACTS_PLAN);
  const tag = `stats-${mode}-${randomUUID().slice(0, 8)}`;
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
      where: 'processing commit (executions created, and the event by type on the same row)',
      runs: runs((d) => d.queue === 'events'),
    },
    { fact: 'send (claim)', where: 'claim transaction (sent)', runs: runs((d) => d.queue === 'workflow') },
    {
      fact: 'SES Send notification',
      where: 'none: not a counted fact (control)',
      runs: runs((d) => d.kind === 'Send'),
    },
    {
      fact: 'delivery notification',
      where: 'notification transaction (delivered)',
      runs: runs((d) => d.kind === 'Delivery'),
    },
    {
      fact: 'human open',
      where: 'notification transaction (opened, once per e-mail)',
      runs: runs((d) => d.kind === 'Open'),
    },
    {
      fact: 'human click',
      where: 'notification transaction (clicked, once per e-mail)',
      runs: runs((d) => d.kind === 'Click'),
    },
    {
      fact: 'hard bounce',
      where: 'notification transaction (bounced_hard, unsubscribed_suppression)',
      runs: runs((d) => d.kind === 'Bounce'),
    },
    { fact: 'one-click unsubscribe', where: 'unsubscribe transaction (unsubscribed_link)', runs: [unsubscribe] },
  ];
  for (const s of samples)
    if (s.runs.length === 0) throw new Error(`no measured run of "${s.fact}" (${mode} counters)`);
  return { samples, claimRow: { clientId: client.id, day: a!.created_at.slice(0, 10), executionId: a!.execution_id } };
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

/** The day row a claim raised: its execution spreads it over the client's shards (claimIncrement), on the claim's UTC day. */
interface ClaimRow {
  clientId: number;
  day: string;
  executionId: number;
}

async function readCounterRow(db: DynamoDBDocumentClient, row: ClaimRow): Promise<Record<string, unknown>> {
  const workflowId = WORKFLOWS.find((w) => w.trigger.event === EVENT_TYPE)!.id;
  const key = keys.statsWorkflowDay(
    row.clientId,
    statsShardOf(row.executionId, clientStatsShardsOf(undefined, { plan: FACTS_PLAN })),
    row.day,
    workflowId,
  );
  const out = await db.send(new GetCommand({ TableName: tableOf(getContainer()).tableName, Key: key }));
  if (!out.Item) throw new Error(`no counter row at ${JSON.stringify(key)}`);
  return out.Item;
}

/**
 * The 90-day read on a client of `plan` whose rows were written directly: every catalog workflow and event type on each
 * of the 90 days, on every shard the client's counters have (statsReadShardsOf: 1 for a light client on the default
 * plan, one row each; 16 for a busy one whose facts reached every shard every day).
 */
async function measureRead(deps: StatsBenchDeps, label: string, plan: SubscriptionPlan['tier']): Promise<StatsRead> {
  const client = await deps.newClient(plan);
  const shards = statsReadShardsOf({ plan });
  const { db, tableName } = tableOf(getContainer());
  const to = new Date();
  const days = Array.from({ length: STATS_DAYS }, (_, i) =>
    new Date(to.getTime() - i * 86_400_000).toISOString().slice(0, 10),
  );
  const expires = Math.floor(to.getTime() / 1000) + 400 * 86_400;
  const rows: Record<string, unknown>[] = [];
  for (const [d, day] of days.entries()) {
    for (let s = 0; s < shards; s += 1) {
      for (const workflow of WORKFLOWS) {
        const shard = s;
        const counts = Object.fromEntries(STAT_COUNTERS.map((name, i) => [name, 10 + ((i * 7 + d) % 90)]));
        rows.push({
          ...keys.statsWorkflowDay(client.id, shard, day, workflow.id),
          ...counts,
          'skip:unsubscribed': 3,
          'fail:render': 1,
          workflow_id: workflow.id,
          day,
          expires_at: expires,
        });
      }
      for (const type of EVENT_TYPES) {
        const shard = s;
        rows.push({
          ...keys.statsEventTypeDay(client.id, shard, day, type),
          received: 100 + d,
          event_type: type,
          day,
          expires_at: expires,
        });
      }
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
    deps.counter.measure(() =>
      getStats(statsDeps, { clientId: client.id, statsShards: shards }, { from, to: today, granularity: 'day' }),
    ),
  );
  const view = result.result;
  if (view.series.length !== STATS_DAYS) throw new Error(`the 90-day read answered ${view.series.length} days`);
  // DynamoDB's rule for a Query: the returned items' sizes summed, rounded up to 4 KB, 0.5 RCU each (eventually consistent).
  const perShard = new Map<string, number>();
  for (const row of rows) perShard.set(String(row['pk']), (perShard.get(String(row['pk'])) ?? 0) + itemBytes(row));
  const rcuByRule = [...perShard.values()].reduce((sum, bytes) => sum + Math.ceil(bytes / 4096) * 0.5, 0);

  // The route over HTTP: once to warm its authentication, then measured on the container's counter (nothing else
  // runs meanwhile: the queues are idle and the sweeps run minutes apart).
  const path = `/client/stats?from=${from}&to=${today}`;
  await deps.send('GET', path, client.key, {});
  deps.counter.reset();
  const res = await deps.send('GET', path, client.key, {});
  if (res.status !== 200) throw new Error(`GET /client/stats answered ${res.status}`);
  const route = { requests: deps.counter.total, byCommand: deps.counter.snapshot() };
  return {
    label,
    plan,
    shards,
    rows: rows.length,
    rowBytes: Math.round(rows.reduce((sum, r) => sum + itemBytes(r), 0) / rows.length),
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

const num = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
const signed = (n: number) => `${n >= 0 ? '+' : ''}${num(n)}`;

function factRows(run: StatsBenchRun): string[][] {
  return run.facts.map((f) => {
    const v = verdictOf(f);
    return [
      f.fact,
      f.where,
      String(f.with.samples),
      `${num(f.without.requests)} → ${num(f.with.requests)}`,
      signed(v.extraRequests),
      `${num(f.without.wcu)} → ${num(f.with.wcu)}`,
      num(f.with.counterItems),
      signed(v.extraWcu),
      `${num(f.without.reportedWcu)} → ${num(f.with.reportedWcu)}`,
      v.requestsMet ? 'met' : 'NOT met',
      v.wcuMet ? 'met' : 'NOT met',
    ];
  });
}

const FACT_HEADER = [
  'fact',
  'counters written in',
  'runs',
  'requests without → with',
  'extra requests',
  'table WCU by rule, without → with',
  'counter items',
  'extra WCU (rule)',
  'WCU DynamoDB Local reports, without → with',
  '0 extra requests',
  `≤ ${COUNTER_TARGETS.extraWcu} extra WCU`,
];
const READ_HEADER = [
  'client',
  'plan (stats shards)',
  'rows in 90 days',
  'bytes a row',
  'requests (getStats)',
  'waves',
  'by command',
  'RCU reported',
  'RCU by rule',
  'route `GET /client/stats`',
  'one request',
];

function readRows(run: StatsBenchRun): string[][] {
  const commands = (byCommand: Record<string, number>) =>
    Object.entries(byCommand)
      .map(([c, n]) => `${c.replace(/Command$/, '')} ${n}`)
      .join(', ');
  return run.reads.map((r) => [
    r.label,
    `${r.plan} (${r.shards})`,
    String(r.rows),
    String(r.rowBytes),
    String(r.requests),
    String(r.waves),
    commands(r.byCommand),
    num(r.rcu),
    num(r.rcuByRule),
    `${r.route.requests}: ${commands(r.route.byCommand)}`,
    r.requests <= 1 ? 'met' : 'NOT met',
  ]);
}

export function printStats(run: StatsBenchRun): void {
  console.log(
    '\nDay counters: the operation that records each fact, without and with its counters (DynamoDB Local, ReturnConsumedCapacity)',
  );
  console.table(factRows(run).map((r) => Object.fromEntries(FACT_HEADER.map((h, i) => [h, r[i]]))));
  console.log(
    `counter row: ${run.counterRow.bytes} bytes → ${run.counterRow.wcuInTransaction} WCU inside a transaction (${run.counterRow.wcuAlone} as a lone UpdateItem), by DynamoDB's rules`,
  );
  console.log('\nStats read, 90 days (getStats: one Query per shard the client has, in parallel)');
  console.table(readRows(run).map((r) => Object.fromEntries(READ_HEADER.map((h, i) => [h, r[i]]))));
}

const table = (header: string[], rows: string[][]) =>
  [header, header.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');

export const STATS_START = '<!-- counters:begin -->';
export const STATS_END = '<!-- counters:end -->';
export const STATS_TITLE = '## Day counters: what counting costs';

/** The counters' section of docs/benchmarks.md, between its markers. */
export function statsMarkdown(run: StatsBenchRun): string {
  const counted = run.facts.filter((f) => f.with.counterItems > 0);
  const verdicts = counted.map(verdictOf);
  const requestsMet = verdicts.every((v) => v.requestsMet);
  const wcuMet = verdicts.filter((v) => v.wcuMet).length;
  const extras = [...new Set(verdicts.map((v) => num(v.extraWcu)))].join(' or ');
  const busy = run.reads.find((r) => r.label === 'busy') ?? run.reads.at(-1)!;
  const light = run.reads.find((r) => r.label === 'light') ?? run.reads[0]!;
  return `${STATS_START}
Written by \`npm run bench\` (part \`BENCH_ONLY=stats\`, scripts/bench/stats.ts) on ${run.date}.

Each fact is recorded twice on the local runtime, on a fresh client each time: once as the service runs, and once with
the fact-recording stores built on \`StatsItems\` with \`counting: false\` (a constructor option for this measurement
only: no configuration sets it and the composition never passes it), which makes each store send exactly what it
would without counters. A fact's figures are those of the operation that records it: the queue function's run
(process-events, execute-workflow, ses-status: every DynamoDB request of the run, reads included) or, for the
one-click unsubscribe, the route's domain call (\`unsubscribeByLink\`). One warm-up e-mail per client runs first, so
the configuration caches are warm in both runs; each figure is the mean of its runs. The facts go to the
\`trial_ending\` workflow; the opens and clicks are a person's (desktop Chrome), the bounce is permanent.

Requests are counted by the SDK middleware. **Write units are computed by DynamoDB's documented rule**, item by
item: every item a write request names is read before and after it (on a client of its own, not counted), and costs
1 WCU per started KB of the larger image, twice inside a transaction (index writes left out: the counter rows carry
no index key). DynamoDB Local does answer \`ReturnConsumedCapacity\` (its column below), but its transaction figures
do not follow the rule — measured: a transaction of one new small Put and one counter \`ADD\` reports 2 WCU, the same
as the Put alone — so they cannot price the counters; its single-item writes and its reads do follow it.

${table(FACT_HEADER, factRows(run))}

A day-counter row is small (${run.counterRow.bytes} bytes for the claim's row after this run): ${run.counterRow.wcuInTransaction} WCU as an item of a
transaction, ${run.counterRow.wcuAlone} as a lone \`UpdateItem\`. The SES Send notification counts nothing (control row).

- **0 extra requests: ${requestsMet ? 'met' : 'NOT met'}** for every counted fact: each counter is one more item in the transaction that
  already records the fact.
- **≤ 1 extra WCU per fact: ${wcuMet === verdicts.length ? 'met' : 'NOT met'}** (${wcuMet} of ${verdicts.length} counted facts): counting adds ${extras} WCU a fact
  (2 per counter row, one row a fact: the processing commit counts the event received on the workflow row it writes
  for the execution, \`event:<type>\`, and writes an event-type row only for an event that starts nothing). A
  counter \`ADD\` inside \`TransactWriteItems\` is billed as a transactional write, 2 WCU per KB, so a fact's counter
  cannot cost less than 2 while it rides in the fact's transaction. What would meet it, not built: count outside the
  transaction — a DynamoDB Streams aggregator that reads the facts' items from the stream and adds them up per row
  in batches (one standard \`UpdateItem\` per row and batch: well under 1 WCU a fact at volume; the figures lag by
  seconds, stream reads and the aggregator's Lambda cost apart, and exactness then rests on the aggregator's
  idempotence instead of the fact's transaction). A lone standard \`UpdateItem\` per fact would cost exactly 1 WCU
  but one more request and a count no longer atomic with its fact. Fewer shards do not change the per-fact cost
  (each fact writes one row either way); they change the read below.

**Stats read, 90 days.** \`GET /client/stats\` runs \`getStats\`: one Query per stats shard the client's counters have,
all in one wave — 1 for a client whose limits stay below 10 000 e-mails a day and 300 000 a month (the quota's
sharding rule: free and starter plans), ${STATS_SHARD_COUNT} at or above them (growth and scale), or more if its limits were ever that
high (\`stats_shards_max\` on the client item). The principal carries the count, from the client item authentication
reads and caches: no request of its own. Rows written directly for a 90-day range: every catalog workflow
(${WORKFLOWS.length}) and event type (${EVENT_TYPES.length}) each day, on each of the client's shards ("light": the default plan, one row each;
"busy": the scale plan, a client whose facts reached all ${STATS_SHARD_COUNT} shards every day: the most rows the catalog's workflows and
event types can leave in 90 days). Read units as DynamoDB Local reports them (eventually consistent Queries) and by
the rule (each shard's returned rows summed, 0.5 RCU per started 4 KB).

${table(READ_HEADER, readRows(run))}

- **One request: ${light.requests <= 1 ? 'met' : 'NOT met'} for a client never sharded**: ${light.requests} ${light.requests === 1 ? 'Query' : 'Queries'} for the light client's 90 days
  (${light.rows} rows, ${num(light.rcu)} RCU); the route adds what every API request costs (the rate-limit count).
- **A sharded client: ${busy.requests} Queries in ${busy.waves} wave${busy.waves === 1 ? '' : 's'}**, the latency of one request at the request count of
  ${STATS_SHARD_COUNT}: the price of spreading its writes below one key's 1 000 WCU/s (docs/capacity.md). The read units follow the
  rows, not the requests: ${num(busy.rcu)} RCU for the busy client's ${busy.rows} rows. One request for it too would need per-day
  rollup rows written by a Streams aggregator and read with one Query of 90 small rows; not built.
${STATS_END}`;
}
