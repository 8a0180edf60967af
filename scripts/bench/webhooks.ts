import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DynamoDBRecord } from 'aws-lambda';
import { QUEUE_FUNCTION_DEFAULTS, queueFunctions } from '../../functions/queues.js';
import type { StreamFunctionDefinition } from '../../functions/streams.js';
import { createQueueDispatcher } from '../../local/queue-functions.js';
import type { LocalRuntime } from '../../local/runtime.js';
import type { RequestCounter, RequestUsage } from '../../shared/adapters/dynamo/request-counter.js';
import { factsOfStreamRecords } from '../../shared/adapters/dynamo/webhook-stream-facts.js';
import { getContainer, type Container } from '../../shared/composition/container.js';
import type { Ports } from '../../shared/composition/port-registry.js';
import { webhookSender } from '../../shared/composition/providers/webhook-sender.js';
import type { WebhookSender } from '../../shared/domain/webhooks/webhook-sender.js';
import { MAX_QUEUE_BATCH, type Queue, type QueueName, type WebhookDeliveryMessage } from '../../shared/platform.js';
import type { EngineMeter } from './engine-meter.js';
import type { Send } from './scenarios.js';
import { attemptCase, commandsDelta, commandsText, meanCommands } from './webhook-cost.js';
import { runIsolationBench, type IsolationRun } from './webhook-isolation.js';

/**
 * The webhooks' bench (`BENCH_ONLY=webhooks`):
 * 1. cost per fact, on the local runtime: the operations that record the facts of a sync signup and an API
 *    unsubscribe, for a client without an endpoint and one with an endpoint (a node:http receiver on 127.0.0.1),
 *    their DynamoDB requests compared (the stream is the outbox: the fact's transaction is unchanged); the stream
 *    producer's requests and SQS sends per batch of facts; per delivery attempt, the deliverer's requests, SQS sends
 *    and POSTs (a third client's receiver answers its first POST 503 to show the health changes and the lanes);
 * 2. isolation under AWS's bounded concurrency (scripts/bench/webhook-isolation.ts).
 * Counting: DynamoDB through the container's RequestCounter (`measure` scopes), SQS through a counting wrapper of the
 * runtime's queue, POSTs through a counting wrapper of the webhook sender (both put in place with `withStores`); the
 * stream batches are measured by wrapping the runtime's stream poller's per-function hand-over (bench only), the
 * two webhook lanes by consumers of the bench's own on the runtime's queue (the engine meter's are put back after).
 */

export interface WebhookBenchDeps {
  runtime: LocalRuntime;
  meter: EngineMeter;
  counter: RequestCounter;
  send: Send;
  region: string;
  newClient(): Promise<{ id: number; key: string }>;
  withStores(stores: (container: Container) => Partial<Ports>): () => void;
}

interface Tally {
  sqsRequests: number;
  sqsMessages: number;
  toFailingLane: number;
  posts: (number | null)[];
}
const newTally = (): Tally => ({ sqsRequests: 0, sqsMessages: 0, toFailingLane: 0, posts: [] });

type ClientKind = 'warm-up' | 'none' | 'ok' | 'flaky';
const KIND_LABEL: Record<ClientKind, string> = {
  'warm-up': 'warm-up (not reported)',
  none: 'no endpoint',
  ok: '1 endpoint (all types, answers 204)',
  flaky: '1 endpoint (first POST answered 503)',
};

export interface ProducerBatch {
  client: ClientKind;
  facts: string[];
  usage: RequestUsage;
  sqsRequests: number;
  sqsMessages: number;
}

export interface AttemptRow {
  case: string;
  runs: number;
  byCommand: Record<string, number>;
  requests: number;
  sqsRequests: number;
  posts: number;
}

export interface RecordingOp {
  op: string;
  fact: string;
  without: Record<string, number>;
  with: Record<string, number>;
}

export interface WebhookBenchRun {
  date: string;
  recording: RecordingOp[];
  producer: ProducerBatch[];
  attempts: AttemptRow[];
  posts: Record<string, number>;
  isolation: IsolationRun;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
type Deliver = (fn: StreamFunctionDefinition, records: DynamoDBRecord[], shardId: string) => Promise<void>;

export async function runWebhooksBench(deps: WebhookBenchDeps): Promise<WebhookBenchRun> {
  const cost = await measureCost(deps);
  console.log('Webhooks: isolation under bounded concurrency (memory stores, faked endpoints)…');
  const isolation = await runIsolationBench();
  return { ...cost, isolation, date: new Date().toISOString().slice(0, 10) };
}

async function measureCost(deps: WebhookBenchDeps): Promise<Omit<WebhookBenchRun, 'isolation' | 'date'>> {
  const { runtime, counter } = deps;
  const tallies = new AsyncLocalStorage<Tally>();

  // The receiver: /ok answers 204; /flaky answers 503 to its first POST, then 204.
  const posts: Record<string, number> = {};
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = (req.url ?? '/').split('-')[0]!;
      posts[path] = (posts[path] ?? 0) + 1;
      if (path === '/flaky' && posts[path] === 1) res.writeHead(503).end('not now');
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // SQS and POSTs counted into the caller's tally; the runtime's queue (the engine meter's counting port) and sender behind.
  const queue = deps.meter.ports().queue;
  const countedQueue: Queue = {
    send: (name, message, options) => {
      const t = tallies.getStore();
      if (t) {
        t.sqsRequests += 1;
        t.sqsMessages += 1;
        if (name === 'webhooks-failing') t.toFailingLane += 1;
      }
      return queue.send(name, message, options);
    },
    sendBatch: (name, messages) => {
      const t = tallies.getStore();
      if (t) {
        t.sqsRequests += Math.ceil(messages.length / MAX_QUEUE_BATCH);
        t.sqsMessages += messages.length;
        if (name === 'webhooks-failing') t.toFailingLane += messages.length;
      }
      return queue.sendBatch(name, messages);
    },
  };
  const sender = getContainer().resolve([webhookSender]).webhookSender;
  const countedSender: WebhookSender = {
    send: async (request) => {
      const outcome = await sender.send(request);
      tallies.getStore()?.posts.push(outcome.status_code);
      return outcome;
    },
  };
  const restoreStores = deps.withStores(() => ({ queue: countedQueue, webhookSender: countedSender }));

  // The stream producer: each hand-over of records with facts measured; a gate holds it while a recording op runs.
  const clientKinds = new Map<number, ClientKind>();
  const batches: (ProducerBatch & { clientIds: number[] })[] = [];
  const poller = runtime.streams as unknown as { deliver: Deliver };
  const original = poller.deliver;
  let gate: Promise<void> = Promise.resolve();
  poller.deliver = async (fn, records, shardId) => {
    await gate;
    // Other stream functions (the day counters) read the same records: held too, but only the webhook producer measured.
    const facts = fn.handler === 'webhook-facts' ? factsOfStreamRecords(records) : [];
    if (facts.length === 0) return original.call(poller, fn, records, shardId);
    const tally = newTally();
    const { usage } = await counter.measure(() =>
      tallies.run(tally, () => original.call(poller, fn, records, shardId)),
    );
    const clientIds = [...new Set(facts.map((f) => f.client_id))];
    batches.push({
      client: clientKinds.get(clientIds[0]!) ?? 'none',
      clientIds,
      facts: facts.map((f) => f.type),
      usage,
      sqsRequests: tally.sqsRequests,
      sqsMessages: tally.sqsMessages,
    });
  };

  // The two webhook lanes: each record its own measured run.
  interface Measured {
    queue: 'webhooks' | 'webhooks-failing';
    message: WebhookDeliveryMessage;
    usage: RequestUsage;
    tally: Tally;
  }
  const measured: Measured[] = [];
  const dispatcher = createQueueDispatcher({ region: deps.region });
  for (const lane of ['webhooks', 'webhooks-failing'] as const) {
    const fn = queueFunctions.find((f) => f.queue === lane)!;
    // Polled as the lane's mapping is on AWS (functions/queue-sizing.ts): its batch size and maximum concurrency.
    runtime.engine.queue.consume(lane, {
      ...dispatcher.sizingOf(lane),
      maxReceiveCount: fn.maxReceiveCount ?? QUEUE_FUNCTION_DEFAULTS.maxReceiveCount,
      visibilityTimeoutMs: 30_000,
      deliver: async (deliveries) => {
        const outcomes = await Promise.all(
          deliveries.map(async (d) => {
            const tally = newTally();
            const { result, usage } = await counter.measure(() =>
              tallies.run(tally, () => dispatcher.deliver(lane, [d])),
            );
            measured.push({ queue: lane, message: JSON.parse(d.body) as WebhookDeliveryMessage, usage, tally });
            return result;
          }),
        );
        return { failed: outcomes.flatMap((o) => o.failed) };
      },
    });
  }

  const settle = async () => {
    const q = runtime.engine.queue;
    const deadline = performance.now() + 60_000;
    for (;;) {
      await runtime.streams.settled();
      await q.idle(60_000);
      const pending = (['ses-status', 'webhooks', 'webhooks-failing'] as QueueName[]).reduce(
        (n, name) => n + q.depth(name),
        0,
      );
      if (pending === 0 && !runtime.streams.running) return;
      if (performance.now() > deadline) throw new Error('webhooks bench: the queues did not settle in 60 s');
      await sleep(100);
    }
  };
  const factsSeen = (clientId: number) => batches.filter((b) => b.clientIds.includes(clientId)).flatMap((b) => b.facts);
  const until = async (what: string, test: () => boolean) => {
    const deadline = performance.now() + 30_000;
    while (!test()) {
      if (performance.now() > deadline) throw new Error(`webhooks bench: no ${what} in 30 s`);
      await sleep(50);
    }
  };
  /** The DynamoDB requests of an HTTP request, the stream producer held meanwhile (queue runs that overlap subtracted). */
  const recordingOp = async (fn: () => Promise<void>): Promise<Record<string, number>> => {
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const meterBefore = deps.meter.deliveries.length;
    const mineBefore = measured.length;
    const before = counter.snapshot();
    try {
      await fn();
    } finally {
      open();
    }
    const delta = commandsDelta(before, counter.snapshot());
    for (const run of [
      ...deps.meter.deliveries.slice(meterBefore).map((d) => d.dynamo),
      ...measured.slice(mineBefore).map((m) => m.usage),
    ]) {
      for (const [c, n] of Object.entries(run.by_command)) delta[c] = (delta[c] ?? 0) - n;
    }
    return Object.fromEntries(Object.entries(delta).filter(([, n]) => n !== 0));
  };

  const recordings: Partial<
    Record<
      ClientKind,
      { signup: Record<string, number>; delivery: Record<string, number>; unsubscribe: Record<string, number> }
    >
  > = {};
  try {
    await settle();
    // A warm-up client first (the container's own caches, not the clients', filled before anything is compared).
    for (const kind of ['warm-up', 'none', 'ok', 'flaky'] as const) {
      console.log(`Webhooks: cost per fact, client: ${KIND_LABEL[kind]}…`);
      const client = await deps.newClient();
      clientKinds.set(client.id, kind);
      if (kind === 'ok' || kind === 'flaky') {
        const res = await deps.send('POST', '/client/webhooks', client.key, {
          json: { url: `${base}/${kind}-${client.id}` },
        });
        if (res.status !== 201)
          throw new Error(`POST /client/webhooks answered ${res.status}: ${JSON.stringify(res.body)}`);
      }
      // The same authenticated request for every client before the measured ones (the per-client caches alike).
      const list = await deps.send('GET', '/client/webhooks', client.key, {});
      if (list.status !== 200) throw new Error(`GET /client/webhooks answered ${list.status}`);
      await settle();
      const email = `webhooks-${kind}-${randomUUID().slice(0, 8)}@example.com`;
      let contactId = 0;
      const meterBefore = deps.meter.deliveries.length;
      const signup = await recordingOp(async () => {
        const res = await deps.send('POST', '/client/events?sync=true', client.key, {
          json: { type: 'signup', email, auto_create_contact: true, idempotency_key: `bench-${randomUUID()}` },
        });
        if (res.status !== 201)
          throw new Error(`POST /client/events?sync=true answered ${res.status}: ${JSON.stringify(res.body)}`);
        contactId = res.body.data.contact_id as number;
      });
      await until('email.delivered fact', () => factsSeen(client.id).includes('email.delivered'));
      await settle();
      const delivery = deps.meter.deliveries.slice(meterBefore).find((d) => d.kind === 'Delivery');
      if (!delivery) throw new Error('webhooks bench: no metered SES Delivery notification run');
      const unsubscribe = await recordingOp(async () => {
        const res = await deps.send('PATCH', `/client/contacts/${contactId}/subscription`, client.key, {
          json: { is_subscribed: false },
        });
        if (res.status !== 200)
          throw new Error(
            `PATCH /client/contacts/${contactId}/subscription answered ${res.status}: ${JSON.stringify(res.body)}`,
          );
      });
      await until('contact.unsubscribed fact', () => factsSeen(client.id).includes('contact.unsubscribed'));
      await settle();
      recordings[kind] = { signup, delivery: delivery.dynamo.by_command, unsubscribe };
    }
  } finally {
    delete (poller as Partial<typeof poller>).deliver;
    deps.meter.install(counter, deps.region);
    restoreStores();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  const none = recordings.none!;
  const ok = recordings.ok!;
  const recording: RecordingOp[] = [
    {
      op: '`POST /client/events?sync=true` (signup: contact, event, execution, claim, send)',
      fact: 'email.sent',
      without: none.signup,
      with: ok.signup,
    },
    {
      op: 'ses-status run of the SES Delivery notification',
      fact: 'email.delivered',
      without: none.delivery,
      with: ok.delivery,
    },
    {
      op: '`PATCH /client/contacts/{id}/subscription` (is_subscribed false)',
      fact: 'contact.unsubscribed',
      without: none.unsubscribe,
      with: ok.unsubscribe,
    },
  ];

  const groups = new Map<string, Measured[]>();
  const reported = new Set([...clientKinds].filter(([, kind]) => kind !== 'warm-up').map(([id]) => id));
  for (const m of measured.filter((x) => reported.has(x.message.client_id))) {
    const name = attemptCase({
      queue: m.queue,
      posts: m.tally.posts,
      byCommand: m.usage.by_command,
      toFailingLane: m.tally.toFailingLane,
    });
    groups.set(name, [...(groups.get(name) ?? []), m]);
  }
  const attempts: AttemptRow[] = [...groups].map(([name, runs]) => ({
    case: name,
    runs: runs.length,
    byCommand: meanCommands(runs.map((r) => r.usage.by_command)),
    requests: runs.reduce((s, r) => s + r.usage.requests, 0) / runs.length,
    sqsRequests: runs.reduce((s, r) => s + r.tally.sqsRequests, 0) / runs.length,
    posts: runs.reduce((s, r) => s + r.tally.posts.length, 0) / runs.length,
  }));
  attempts.sort((a, b) => a.case.localeCompare(b.case));
  const producer = batches.filter((b) => b.client !== 'warm-up').map(({ clientIds: _ids, ...b }) => b);
  return { recording, producer, attempts, posts };
}

// ---------------------------------------------------------------------------------------------------------------
// Report

const num = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(0)} ms`);
const table = (header: string[], rows: string[][]) =>
  [header, header.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
const total = (byCommand: Record<string, number>) => Object.values(byCommand).reduce((s, n) => s + n, 0);

const RECORDING_HEADER = [
  'operation that records the fact',
  'fact',
  'DynamoDB requests, client without endpoint',
  'with an endpoint',
  'extra',
];
const recordingRows = (run: WebhookBenchRun) =>
  run.recording.map((r) => [
    r.op,
    r.fact,
    `${num(total(r.without))}: ${commandsText(r.without)}`,
    `${num(total(r.with))}: ${commandsText(r.with)}`,
    extraText(commandsDelta(r.without, r.with)),
  ]);
const extraText = (delta: Record<string, number>) =>
  Object.keys(delta).length === 0 ? '0' : `${num(total(delta))}: ${commandsText(delta)}`;

const PRODUCER_HEADER = [
  'client',
  'facts in the batch',
  'DynamoDB requests',
  'by command',
  'waves',
  'SQS requests',
  'SQS messages',
];
const producerRows = (run: WebhookBenchRun) =>
  run.producer.map((b) => [
    KIND_LABEL[b.client as ClientKind],
    b.facts.join(', '),
    String(b.usage.requests),
    commandsText(b.usage.by_command),
    String(b.usage.waves),
    String(b.sqsRequests),
    String(b.sqsMessages),
  ]);

const ATTEMPT_HEADER = ['delivery attempt', 'runs', 'DynamoDB requests', 'by command', 'SQS requests', 'POSTs'];
const attemptRows = (run: WebhookBenchRun) =>
  run.attempts.map((a) => [
    a.case,
    String(a.runs),
    num(a.requests),
    commandsText(a.byCommand),
    num(a.sqsRequests),
    num(a.posts),
  ]);

const ISOLATION_LABEL: Record<string, string> = {
  alone: '(i) B alone',
  lanes: "(ii) + A's flood, two lanes (A already failing)",
  'lanes-cold': "(ii') + A's flood, two lanes (A dies as the flood starts)",
  'one-lane': "(iii) + A's flood, one lane (no move)",
};
const ISOLATION_HEADER = [
  'scenario',
  "B's deliveries",
  'B p50',
  'B p95',
  'B max',
  "A's deliveries enqueued",
  "A's POSTs (timeouts) meanwhile",
  'A moved to the failing lane',
  'wall',
];
const isolationRows = (run: WebhookBenchRun) =>
  run.isolation.results.map((r) => [
    ISOLATION_LABEL[r.scenario]!,
    String(r.latency.n),
    ms(r.latency.p50),
    ms(r.latency.p95),
    ms(r.latency.max),
    String(r.flood.enqueued),
    String(r.flood.posted),
    String(r.flood.moved),
    ms(r.wallMs),
  ]);

export function printWebhooks(run: WebhookBenchRun): void {
  const show = (header: string[], rows: string[][]) =>
    console.table(rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]]))));
  console.log('\nWebhooks: the operations that record the facts, without and with an endpoint');
  show(RECORDING_HEADER, recordingRows(run));
  console.log('Webhooks: the stream producer, per batch of facts');
  show(PRODUCER_HEADER, producerRows(run));
  console.log('Webhooks: the deliverer, per attempt');
  show(ATTEMPT_HEADER, attemptRows(run));
  console.log(`receiver POSTs: ${JSON.stringify(run.posts)}`);
  console.log("Webhooks: isolation, B's latency from enqueue to its POST");
  show(ISOLATION_HEADER, isolationRows(run));
}

export const WEBHOOKS_START = '<!-- webhooks:begin -->';
export const WEBHOOKS_END = '<!-- webhooks:end -->';
export const WEBHOOKS_TITLE = '## Webhooks: cost per fact and isolation';

export function webhooksMarkdown(run: WebhookBenchRun): string {
  const o = run.isolation.options;
  const p = run.isolation.pools;
  const r = Object.fromEntries(run.isolation.results.map((x) => [x.scenario, x]));
  const deltas = run.recording.map((x) => commandsDelta(x.without, x.with));
  const unchanged = deltas.every((d) => Object.keys(d).length === 0);
  return `${WEBHOOKS_START}
Written by \`npm run bench\` (part \`BENCH_ONLY=webhooks\`, scripts/bench/webhooks.ts, webhook-isolation.ts) on ${run.date}.

**Cost per fact, on the local runtime** (DynamoDB Local, the in-process queue, the stream poller). Three fresh
clients, each with a sync signup (facts \`email.sent\`, then \`email.delivered\` from the local SES's Delivery
notification) and an API unsubscribe (\`contact.unsubscribed\`): one without an endpoint, one with an endpoint taking
every type on a node:http receiver on 127.0.0.1 answering 204, one whose receiver answers its first POST 503.
DynamoDB requests are counted by the container's RequestCounter in \`measure\` scopes, SQS requests by a counting
wrapper of the runtime's queue, POSTs at the wrapper of the webhook sender and at the receiver.

The facts are read from the table's change stream: **the stream is the outbox**, so the transaction that records a
fact is the same with or without webhooks. Measured: the operations that record them send the same requests for a
client with an endpoint as for one without (the HTTP request's requests with the stream producer held meanwhile;
the SES notification's queue run): ${unchanged ? '**0 extra requests**' : `**not the same**: ${deltas.map(extraText).join('; ')} (see the table)`}.

${table(RECORDING_HEADER, recordingRows(run))}

The stream producer (functions/stream/webhook-facts → produceWebhooks), per batch the poller handed over (a batch
holds the facts that reached the stream together; here one each):

${table(PRODUCER_HEADER, producerRows(run))}

- No endpoint: 0 requests on a warm cache; 1 Query (the endpoint list) when the container's config cache does not
  hold the client's list (first fact, or CONFIG_CACHE_TTL_SECONDS later, or an endpoint changed in this container).
- An endpoint taking the fact: an e-mail fact reads its sent e-mail and then its triggering event (2 BatchGetItem
  waves), a contact fact neither; then 1 BatchWriteItem (the message) and 1 SendMessageBatch (a delivery per
  endpoint). Batched: per stream batch of up to 100 records, not per fact.
- The third client's later rows pay the Query again: its endpoint's health changed in between (first failure,
  then recovery), and the deliverer forgets the cached list in its container, which locally is the producer's too. On
  AWS they are different functions: the producer keeps its list up to CONFIG_CACHE_TTL_SECONDS (the producer does
  not read the health; the deliverer reads the endpoint with a consistent GetItem every attempt).

The deliverer (functions/queue/deliver-webhook, deliver-webhook-failing), per attempt (mean over its runs):

${table(ATTEMPT_HEADER, attemptRows(run))}

A healthy attempt is 2 GetItem (endpoint, message) + 1 PutItem (the attempt) + 1 POST; the endpoint's UpdateItem only
on a health change (first failure, recovery); a failure adds 1 SendMessage (the retry, on the failing lane); a
delivery on the healthy lane to a failing endpoint is 2 GetItem + 1 SendMessage and no POST.

**Isolation** (scripts/bench/webhook-isolation.ts). The lanes are measured apart from the local runtime, on memory
stores with the endpoints faked and time scaled down, so a dead endpoint's 10 s timeout fits in a short bench: a pool
of workers per lane as functions/queues.ts sizes them (healthy ${p.healthy.workers} × ${p.healthy.batch} records, failing ${p.failing.workers} × ${p.failing.batch}), a worker taking up to a batch of visible messages, running its
records in parallel and free again when the whole batch is done, as a Lambda SQS event source mapping runs them.
Every record runs the real \`deliverWebhook\` over the memory stores; only the endpoints are faked: client B's answers
204 after ${o.healthyMs} ms, client A's is dead and the sender gives up after **${ms(o.deadTimeoutMs)} — the adapter's 10 s timeout scaled
down ×${o.timeScale}** to keep the bench short (SQS retry delays scaled alike). B gets ${o.deliveries} deliveries; A's flood is ${o.floodFactor}× that; all
arrive interleaved at an even rate over ${ms(o.arrivalMs)}. B's latency is from enqueue to its POST being sent. The one-lane
row is measurement only: \`deliverWebhook\` is called with lane \`failing\` (whose only difference is that it never moves
a delivery) and the retries it queues are put back on the same pool; the domain is unchanged.

${table(ISOLATION_HEADER, isolationRows(run))}

- **(ii) ≈ (i)**: with the lanes as built, A's flood leaves B's p95 at ${ms(r['lanes']!.latency.p95)} (alone: ${ms(r['alone']!.latency.p95)}): each of A's deliveries on
  the healthy lane is two reads and one SendMessage, and its timeouts hold only the failing lane's ${p.failing.workers} workers.
- **(iii) ≫ (i)**: with one lane, A's timeouts hold the healthy pool (${p.healthy.workers} workers, each held for a whole timeout by any batch
  with one of A's records): B's p50 ${ms(r['one-lane']!.latency.p50)}, p95 ${ms(r['one-lane']!.latency.p95)}, and it grows with the flood's length.
- (ii') The lanes need A to be known as failing: until its first timeout sets \`failing_since\`, A's deliveries are
  tried on the healthy lane, so when a busy endpoint dies, B waits up to about one timeout once (max ${ms(r['lanes-cold']!.latency.max)} here;
  up to 10 s on AWS), then the lanes separate them.
${WEBHOOKS_END}`;
}
