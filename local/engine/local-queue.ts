import { randomUUID } from 'node:crypto';
import type { BatchMessage, Queue, QueueMessages, QueueName, SendOptions } from '../../shared/platform.js';
import { MAX_QUEUE_BATCH, MAX_QUEUE_DELAY_SECONDS } from '../../shared/platform.js';
import { MAPPING_CONCURRENCY } from '../../functions/queue-sizing.js';
import type { LocalDelivery } from '../queue-functions.js';

/**
 * SQS in the process, as Lambda's event source mapping uses it: messages become visible after their delay; each
 * consumer is polled at a steady cadence (sends do not move the poll) and a poller that finishes a batch polls again
 * at once; a poll hands out batches of up to `batchSize` visible messages while fewer than `maxConcurrency` of the
 * consumer's batches run. A message stays in its queue, visible, until it is handed to the consumer: its visibility
 * timeout starts then, not while it waits in the process. Messages are deleted when acknowledged, come back after
 * the visibility timeout when reported in `batchItemFailures` (or when the handler throws), and move to the DLQ after
 * `maxReceiveCount` deliveries. No npm SQS emulator speaks the current protocol (DESIGN.md §3), hence this adapter;
 * only its timing is compressed (the visibility timeout is configurable).
 */
export interface LocalQueueConsumer {
  batchSize: number;
  /**
   * Batches of this consumer running at once (the mapping's maximum concurrency, functions/queue-sizing.ts); without
   * it, Lambda's ceiling for a mapping.
   */
  maxConcurrency?: number;
  maxReceiveCount: number;
  visibilityTimeoutMs: number;
  /** Runs one batch (local/queue-functions.ts: the SQS event to the consuming function); the ids to deliver again. */
  deliver(deliveries: readonly LocalDelivery[]): Promise<{ failed: string[] }>;
}

interface StoredMessage {
  id: string;
  body: string;
  visibleAt: number;
  receiveCount: number;
  sentAt: number;
}

export interface DeadLetter {
  queue: QueueName;
  messageId: string;
  body: string;
  receiveCount: number;
}

/** How often every consumer is polled, whatever is sent meanwhile (SQS's long poll answers about this soon). */
export const LOCAL_POLL_MS = 25;

interface Poller {
  consumer: LocalQueueConsumer;
  /** Batches handed to the consumer and not yet settled. */
  running: number;
}

export class LocalQueue implements Queue {
  private readonly messages = new Map<QueueName, StoredMessage[]>();
  private readonly pollers = new Map<QueueName, Poller>();
  private readonly inFlight = new Set<Promise<void>>();
  readonly deadLetters: DeadLetter[] = [];
  /** Requests sent to the queues (benchmarks, budgets): a SendMessage each, a SendMessageBatch per 10 messages. */
  sends = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly now: () => number = Date.now) {}

  /** Puts `consumer` on `queue` (in place of one before it; batches it still runs count against the new bound). */
  consume(queue: QueueName, consumer: LocalQueueConsumer): void {
    if (this.stopped) return;
    const poller = this.pollers.get(queue);
    if (poller) poller.consumer = consumer;
    else this.pollers.set(queue, { consumer, running: 0 });
    // One steady tick polls every consumer in turn: never reset, so a stream of sends cannot push a poll back.
    if (!this.timer) {
      this.timer = setInterval(() => this.pollAll(), LOCAL_POLL_MS);
      this.timer.unref();
    }
  }

  async send<Q extends QueueName>(queue: Q, message: QueueMessages[Q], options: SendOptions = {}): Promise<void> {
    this.enqueue(queue, [{ message, options }]);
    this.sends += 1;
  }

  /** All or nothing (every delay is checked first); one request per MAX_QUEUE_BATCH messages, as SQS bills them. */
  async sendBatch<Q extends QueueName>(queue: Q, messages: readonly BatchMessage<Q>[]): Promise<void> {
    this.enqueue(queue, messages);
    this.sends += Math.ceil(messages.length / MAX_QUEUE_BATCH);
  }

  private enqueue<Q extends QueueName>(queue: Q, messages: readonly BatchMessage<Q>[]): void {
    const delays = messages.map(({ options = {} }) => options.delaySeconds ?? 0);
    if (!delays.every((delay) => delay >= 0 && delay <= MAX_QUEUE_DELAY_SECONDS)) {
      throw new RangeError(`DelaySeconds must be 0–${MAX_QUEUE_DELAY_SECONDS}`);
    }
    if (this.stopped) throw new Error('the local queue is stopped');
    if (messages.length === 0) return;
    const list = this.messages.get(queue) ?? [];
    const now = this.now();
    messages.forEach(({ message }, i) => {
      const delayMs = Math.ceil(delays[i]!) * 1000;
      list.push({
        id: randomUUID(),
        body: JSON.stringify(message),
        visibleAt: now + delayMs,
        receiveCount: 0,
        sentAt: now,
      });
    });
    this.messages.set(queue, list);
  }

  /**
   * Moves the dead letters of `queue` back to it, as SQS's message move task does: each is a new message (a new
   * message id, sent now, its receive count from zero) with the same body. Returns how many moved; the other queues'
   * stay.
   */
  redrive(queue: QueueName): number {
    if (this.stopped) throw new Error('the local queue is stopped');
    const moving = this.deadLetters.filter((letter) => letter.queue === queue);
    if (moving.length === 0) return 0;
    const staying = this.deadLetters.filter((letter) => letter.queue !== queue);
    this.deadLetters.splice(0, this.deadLetters.length, ...staying);
    const now = this.now();
    const list = this.messages.get(queue) ?? [];
    for (const letter of moving)
      list.push({ id: randomUUID(), body: letter.body, visibleAt: now, receiveCount: 0, sentAt: now });
    this.messages.set(queue, list);
    return moving.length;
  }

  /** Messages waiting (visible or not yet, handed out or not), per queue. */
  depth(queue: QueueName): number {
    return this.messages.get(queue)?.length ?? 0;
  }

  /** How `queue` is consumed (its batch size, concurrency, retries), if anything consumes it. */
  consumerOf(queue: QueueName): Omit<LocalQueueConsumer, 'deliver'> | undefined {
    const consumer = this.pollers.get(queue)?.consumer;
    if (!consumer) return undefined;
    const { deliver: _deliver, ...settings } = consumer;
    return settings;
  }

  /** Batches of `queue` running now. */
  running(queue: QueueName): number {
    return this.pollers.get(queue)?.running ?? 0;
  }

  /** Resolves once no message is visible or being handled (delayed messages may remain). */
  async idle(timeoutMs = 30_000): Promise<void> {
    const until = this.now() + timeoutMs;
    while (this.inFlight.size > 0 || this.hasVisible()) {
      if (this.now() > until) throw new Error('the local queues did not drain in time');
      await new Promise((resolve) => setTimeout(resolve, LOCAL_POLL_MS));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.inFlight]);
  }

  private hasVisible(): boolean {
    const now = this.now();
    return [...this.messages.entries()].some(
      ([queue, list]) => this.pollers.has(queue) && list.some((m) => m.visibleAt <= now),
    );
  }

  private pollAll(): void {
    for (const queue of this.pollers.keys()) this.poll(queue);
  }

  /** One poll of `queue`'s consumer: as many batches as its free concurrency takes, the oldest messages first. */
  private poll(queue: QueueName): void {
    const poller = this.pollers.get(queue);
    if (this.stopped || !poller) return;
    const { consumer } = poller;
    const now = this.now();
    let list = this.messages.get(queue);
    if (!list || list.length === 0) return;
    // As SQS: a message received maxReceiveCount times moves to the DLQ instead of being delivered again (a slow
    // run still holding it does not change that).
    const exhausted = list.filter((m) => m.visibleAt <= now && m.receiveCount >= consumer.maxReceiveCount);
    if (exhausted.length > 0) {
      for (const m of exhausted)
        this.deadLetters.push({ queue, messageId: m.id, body: m.body, receiveCount: m.receiveCount });
      list = list.filter((m) => !exhausted.includes(m));
      this.messages.set(queue, list);
    }
    const free = (consumer.maxConcurrency ?? MAPPING_CONCURRENCY.max) - poller.running;
    if (free <= 0) return;
    const batchSize = Math.max(1, consumer.batchSize);
    const visible: StoredMessage[] = [];
    for (const m of list) {
      if (m.visibleAt > now) continue;
      visible.push(m);
      if (visible.length >= free * batchSize) break;
    }
    for (let i = 0; i < visible.length; i += batchSize) this.deliver(queue, poller, visible.slice(i, i + batchSize));
  }

  private deliver(queue: QueueName, poller: Poller, batch: StoredMessage[]): void {
    const { consumer } = poller;
    // Handed over now: the visibility timeout runs from here.
    const handedAt = this.now();
    for (const m of batch) {
      m.receiveCount += 1;
      m.visibleAt = handedAt + consumer.visibilityTimeoutMs;
    }
    const deliveries = batch.map((m) => ({
      messageId: m.id,
      body: m.body,
      receiveCount: m.receiveCount,
      sentAt: m.sentAt,
    }));
    poller.running += 1;
    const run = (async () => {
      let failed: Set<string>;
      try {
        failed = new Set((await consumer.deliver(deliveries)).failed);
      } catch {
        failed = new Set(batch.map((m) => m.id));
      }
      const list = this.messages.get(queue) ?? [];
      const after = this.now();
      this.messages.set(
        queue,
        list.filter((m) => {
          if (!batch.includes(m)) return true;
          if (!failed.has(m.id)) return false; // acknowledged: deleted
          if (m.receiveCount >= consumer.maxReceiveCount) {
            this.deadLetters.push({ queue, messageId: m.id, body: m.body, receiveCount: m.receiveCount });
            return false;
          }
          // Redelivered after the visibility timeout, counted from the hand-off.
          m.visibleAt = Math.max(m.visibleAt, after);
          return true;
        }),
      );
    })();
    this.inFlight.add(run);
    void run.finally(() => {
      this.inFlight.delete(run);
      poller.running -= 1;
      // The poller that ran this batch is free: it polls again at once, as Lambda's pollers do.
      this.poll(queue);
    });
  }
}
