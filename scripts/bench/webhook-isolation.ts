import { QUEUE_FUNCTION_DEFAULTS, queueFunctions } from '../../functions/queues.js';
import { MemoryWebhookOutbox } from '../../shared/adapters/memory/webhook-outbox.js';
import { MemoryWebhookStore } from '../../shared/adapters/memory/webhook-store.js';
import {
  deliverWebhook,
  LANE_QUEUE,
  type DeliverDeps,
  type DeliveryLane,
} from '../../shared/domain/webhooks/deliver-webhook.js';
import { generateSigningSecret } from '../../shared/domain/webhooks/signing-secret.js';
import type {
  WebhookAttemptOutcome,
  WebhookRequest,
  WebhookSender,
} from '../../shared/domain/webhooks/webhook-sender.js';
import type { WebhookRecord } from '../../shared/domain/webhooks/webhook-store.js';
import type { QueueName, WebhookDeliveryMessage } from '../../shared/platform.js';
import { latencySummary, type LatencySummary } from './percentiles.js';

/**
 * Isolation of webhook deliveries (the webhooks' rule: "one client's dead endpoint must not slow another client's
 * deliveries"), measured with AWS's bounded concurrency emulated apart from the local runtime, so that time can be
 * scaled down (a dead endpoint's 10 s timeout) and nothing but the lanes runs. Two pools of workers, one per lane, each worker a Lambda instance of the
 * lane's function (functions/queues.ts: maxConcurrency workers taking batchSize records, the records of a batch in
 * parallel, the worker free again when its whole batch is done, as an SQS event source mapping runs them). Every
 * record runs the real `deliverWebhook` over the memory stores; only the endpoints are faked, with a latency the
 * bench controls: a healthy endpoint answers 204 after `healthyMs`, a dead one never answers and the sender gives up
 * after `deadTimeoutMs` (the adapter's 10 s, scaled down). SQS delays of retries are scaled by `timeScale` too.
 */
export interface IsolationOptions {
  /** Deliveries to client B's healthy endpoint. */
  deliveries: number;
  /** Client A's flood: this many times B's deliveries, to its dead endpoint. */
  floodFactor: number;
  /** All deliveries (B's and A's, interleaved) are enqueued at an even rate over this window. */
  arrivalMs: number;
  healthyMs: number;
  deadTimeoutMs: number;
  /** The dead endpoint's timeout over the adapter's real one (1 s / 10 s = 0.1); SQS delays are scaled alike. */
  timeScale: number;
}

/**
 * - `alone`: B's deliveries only;
 * - `lanes`: with A's flood, the lanes as built, A's endpoint already failing (failing_since set: the steady state
 *   of a dead endpoint after its first timeout);
 * - `lanes-cold`: the same, but A's endpoint dies as the flood starts (its first deliveries are tried on the healthy
 *   lane until the first timeout marks it failing);
 * - `one-lane`: with A's flood and one lane: every delivery on the healthy pool, none moved (measurement only:
 *   `deliverWebhook` is called with lane `failing`, whose only difference is that it does not move a delivery, and
 *   the retries it queues for the failing lane are put back on the same pool).
 */
export type IsolationScenario = 'alone' | 'lanes' | 'lanes-cold' | 'one-lane';

export interface PoolSize {
  workers: number;
  batch: number;
}

export interface IsolationResult {
  scenario: IsolationScenario;
  /** B's deliveries: enqueue → its POST sent, in ms. */
  latency: LatencySummary;
  /** A's deliveries enqueued, and what became of them by the time B's last POST was sent. */
  flood: { enqueued: number; posted: number; moved: number };
  wallMs: number;
}

export interface IsolationRun {
  options: IsolationOptions;
  pools: Record<DeliveryLane, PoolSize>;
  results: IsolationResult[];
}

export const ISOLATION_DEFAULTS: IsolationOptions = {
  deliveries: 200,
  floodFactor: 10,
  arrivalMs: 4_000,
  healthyMs: 20,
  deadTimeoutMs: 1_000,
  timeScale: 0.1,
};

/** The lanes' pools as functions/queues.ts declares them for AWS. */
export function lanePools(): Record<DeliveryLane, PoolSize> {
  const of = (queue: QueueName): PoolSize => {
    const fn = queueFunctions.find((f) => f.queue === queue);
    if (!fn?.maxConcurrency) throw new Error(`functions/queues.ts declares no maxConcurrency for ${queue}`);
    return { workers: fn.maxConcurrency, batch: fn.batchSize ?? QUEUE_FUNCTION_DEFAULTS.batchSize };
  };
  return { healthy: of(LANE_QUEUE.healthy), failing: of(LANE_QUEUE.failing) };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const CLIENT_A = 1;
const CLIENT_B = 2;
const DEAD_URL = 'https://a.example/dead';
const HEALTHY_URL = 'https://b.example/hooks';

interface Queued {
  message: WebhookDeliveryMessage;
  visibleAt: number;
}

/** One lane's queue: FIFO of visible messages, as an SQS poller receives them (near enough for a standard queue). */
class Lane {
  private readonly items: Queued[] = [];
  push(message: WebhookDeliveryMessage, delayMs = 0): void {
    this.items.push({ message, visibleAt: performance.now() + delayMs });
  }
  take(max: number): WebhookDeliveryMessage[] {
    const now = performance.now();
    const taken: WebhookDeliveryMessage[] = [];
    for (let i = 0; i < this.items.length && taken.length < max; ) {
      if (this.items[i]!.visibleAt <= now) taken.push(this.items.splice(i, 1)[0]!.message);
      else i += 1;
    }
    return taken;
  }
  get size(): number {
    return this.items.length;
  }
}

export async function runIsolation(
  scenario: IsolationScenario,
  options: IsolationOptions,
  pools: Record<DeliveryLane, PoolSize>,
): Promise<IsolationResult> {
  const store = new MemoryWebhookStore();
  const outbox = new MemoryWebhookOutbox(store);
  const at = new Date().toISOString();
  const endpoint = (client_id: number, id: number, url: string): WebhookRecord => ({
    id,
    client_id,
    url,
    description: '',
    event_types: null,
    enabled: true,
    humans_only: false,
    secret: generateSigningSecret(),
    created_at: at,
    updated_at: at,
  });
  await store.create(endpoint(CLIENT_B, 2, HEALTHY_URL), 10);
  const dead = endpoint(CLIENT_A, 1, DEAD_URL);
  if (scenario === 'lanes') dead.failing_since = at;
  await store.create(dead, 10);

  const oneLane = scenario === 'one-lane';
  const lanes: Record<DeliveryLane, Lane> = { healthy: new Lane(), failing: new Lane() };
  const laneOf = (queue: QueueName): Lane => (queue === LANE_QUEUE.failing && !oneLane ? lanes.failing : lanes.healthy);

  const enqueuedAt = new Map<string, number>();
  const postedAt = new Map<string, number>();
  const flood = { enqueued: 0, posted: 0, moved: 0 };
  const sender: WebhookSender = {
    async send(request: WebhookRequest): Promise<WebhookAttemptOutcome> {
      const started = performance.now();
      if (request.url === HEALTHY_URL) {
        const id = request.headers['webhook-id']!;
        if (!postedAt.has(id)) postedAt.set(id, started);
        await sleep(options.healthyMs);
        return {
          status_code: 204,
          duration_ms: Math.round(performance.now() - started),
          response_body: '',
          error: null,
        };
      }
      flood.posted += 1;
      await sleep(options.deadTimeoutMs);
      return {
        status_code: null,
        duration_ms: Math.round(performance.now() - started),
        response_body: null,
        error: 'timeout: no answer (bench: scaled down)',
      };
    },
  };
  const deps: DeliverDeps = {
    clock: { now: () => new Date() },
    webhooks: store,
    webhookOutbox: outbox,
    webhookSender: sender,
    queue: {
      async send(queue, message, sendOptions) {
        laneOf(queue).push(
          message as WebhookDeliveryMessage,
          (sendOptions?.delaySeconds ?? 0) * 1000 * options.timeScale,
        );
      },
      async sendBatch(queue, messages) {
        for (const m of messages)
          laneOf(queue).push(
            m.message as WebhookDeliveryMessage,
            (m.options?.delaySeconds ?? 0) * 1000 * options.timeScale,
          );
      },
    },
    scheduler: { scheduleAt: async () => undefined, cancel: async () => undefined },
    clients: { get: async () => undefined } as unknown as DeliverDeps['clients'],
    clientNotices: { webhookDisabled: async () => undefined },
  };

  // The arrivals, B's and A's interleaved at an even rate; each message stored first, as the producer does.
  const floodCount = scenario === 'alone' ? 0 : options.deliveries * options.floodFactor;
  const total = options.deliveries + floodCount;
  const arrivals: WebhookDeliveryMessage[] = [];
  for (let i = 0; i < total; i += 1) {
    // B's deliveries spread evenly among A's.
    const isB =
      floodCount === 0 ||
      Math.floor(((i + 1) * options.deliveries) / total) > Math.floor((i * options.deliveries) / total);
    const client = isB ? CLIENT_B : CLIENT_A;
    const id = `msg_${String(i).padStart(32, '0')}`;
    const payload = JSON.stringify({
      type: 'email.delivered',
      id,
      created_at: at,
      data: { sent_email_id: `se_${i}`, status: 'delivered' },
    });
    await outbox.putMessages([{ id, client_id: client, type: 'email.delivered', created_at: at, payload }]);
    arrivals.push({ client_id: client, webhook_id: isB ? 2 : 1, message_id: id, attempt: 1 });
  }
  const bCount = arrivals.filter((m) => m.client_id === CLIENT_B).length;

  let stopped = false;
  const started = performance.now();
  const producer = (async () => {
    for (let i = 0; i < arrivals.length && !stopped; ) {
      const due = Math.floor(((performance.now() - started) / options.arrivalMs) * arrivals.length) + 1;
      for (; i < Math.min(due, arrivals.length); i += 1) {
        const m = arrivals[i]!;
        if (m.client_id === CLIENT_B) enqueuedAt.set(m.message_id, performance.now());
        else flood.enqueued += 1;
        lanes.healthy.push(m);
      }
      await sleep(5);
    }
  })();

  const worker = async (lane: DeliveryLane, batch: number) => {
    while (!stopped) {
      const messages = lanes[lane].take(batch);
      if (messages.length === 0) {
        await sleep(5);
        continue;
      }
      await Promise.all(
        messages.map(async (m) => {
          const outcome = await deliverWebhook(deps, m, oneLane ? 'failing' : lane);
          if (outcome.kind === 'moved_to_failing_lane' && m.client_id === CLIENT_A) flood.moved += 1;
        }),
      );
    }
  };
  const workers = [
    ...Array.from({ length: pools.healthy.workers }, () => worker('healthy', pools.healthy.batch)),
    ...(oneLane ? [] : Array.from({ length: pools.failing.workers }, () => worker('failing', pools.failing.batch))),
  ];

  const deadline = started + 300_000;
  while (postedAt.size < bCount && performance.now() < deadline) await sleep(10);
  const wallMs = performance.now() - started;
  const snapshot = { ...flood };
  stopped = true;
  await Promise.all([producer, ...workers]);
  if (postedAt.size < bCount)
    throw new Error(`isolation ${scenario}: ${bCount - postedAt.size} of B's deliveries not sent in 300 s`);
  const latencies = [...enqueuedAt].map(([id, t]) => postedAt.get(id)! - t);
  return { scenario, latency: latencySummary(latencies), flood: snapshot, wallMs };
}

export async function runIsolationBench(options: IsolationOptions = ISOLATION_DEFAULTS): Promise<IsolationRun> {
  const pools = lanePools();
  const results: IsolationResult[] = [];
  for (const scenario of ['alone', 'lanes', 'lanes-cold', 'one-lane'] as const) {
    console.log(`Isolation: ${scenario}…`);
    results.push(await runIsolation(scenario, options, pools));
  }
  return { options, pools, results };
}
