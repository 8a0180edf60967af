import { randomUUID } from 'node:crypto';
import type { BatchMessage, Queue, QueueMessages, QueueName, SendOptions } from '../../shared/platform.js';
import { MAX_QUEUE_BATCH, MAX_QUEUE_DELAY_SECONDS } from '../../shared/platform.js';
import type { LocalDelivery } from '../queue-functions.js';

/**
 * SQS in the process, as Lambda's event source mapping uses it: messages become visible after their delay, are
 * delivered in batches of up to `batchSize` as an SQS event, stay invisible for the visibility timeout while the
 * handler runs, are deleted when acknowledged, come back when reported in `batchItemFailures` (or when the handler
 * throws), and move to the DLQ after `maxReceiveCount` deliveries. No npm SQS emulator speaks the current protocol
 * (DESIGN.md §3), hence this adapter; only its timing is compressed (the visibility timeout is configurable).
 */
export interface LocalQueueConsumer {
  batchSize: number;
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

const POLL_MS = 25;

export class LocalQueue implements Queue {
  private readonly messages = new Map<QueueName, StoredMessage[]>();
  private readonly consumers = new Map<QueueName, LocalQueueConsumer>();
  private readonly inFlight = new Set<Promise<void>>();
  readonly deadLetters: DeadLetter[] = [];
  /** Requests sent to the queues (benchmarks, budgets): a SendMessage each, a SendMessageBatch per 10 messages. */
  sends = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly now: () => number = Date.now) {}

  consume(queue: QueueName, consumer: LocalQueueConsumer): void {
    this.consumers.set(queue, consumer);
    this.schedulePoll(0);
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
    this.schedulePoll(Math.ceil(delays.reduce((low, delay) => Math.min(low, delay))) * 1000);
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
    this.schedulePoll(0);
    return moving.length;
  }

  /** Messages waiting (visible or not yet), per queue. */
  depth(queue: QueueName): number {
    return this.messages.get(queue)?.length ?? 0;
  }

  /** Resolves once no message is visible or being handled (delayed messages may remain). */
  async idle(timeoutMs = 30_000): Promise<void> {
    const until = this.now() + timeoutMs;
    while (this.inFlight.size > 0 || this.hasVisible()) {
      if (this.now() > until) throw new Error('the local queues did not drain in time');
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight]);
  }

  private hasVisible(): boolean {
    const now = this.now();
    return [...this.messages.entries()].some(
      ([queue, list]) => this.consumers.has(queue) && list.some((m) => m.visibleAt <= now),
    );
  }

  private schedulePoll(inMs: number): void {
    if (this.stopped) return;
    const wait = Math.max(POLL_MS, Math.min(inMs, 60_000));
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.poll(), wait);
    this.timer.unref();
  }

  private poll(): void {
    this.timer = undefined;
    if (this.stopped) return;
    const now = this.now();
    let next = Infinity;
    for (const [queue, consumer] of this.consumers) {
      let list = this.messages.get(queue) ?? [];
      // As SQS: a message received maxReceiveCount times moves to the DLQ instead of being delivered again (a slow
      // run still holding it does not change that).
      const exhausted = list.filter((m) => m.visibleAt <= now && m.receiveCount >= consumer.maxReceiveCount);
      if (exhausted.length > 0) {
        for (const m of exhausted)
          this.deadLetters.push({ queue, messageId: m.id, body: m.body, receiveCount: m.receiveCount });
        list = list.filter((m) => !exhausted.includes(m));
        this.messages.set(queue, list);
      }
      const visible = list.filter((m) => m.visibleAt <= now);
      for (let i = 0; i < visible.length; i += consumer.batchSize)
        this.deliver(queue, consumer, visible.slice(i, i + consumer.batchSize), now);
      for (const m of list) if (m.visibleAt > now) next = Math.min(next, m.visibleAt - now);
    }
    this.schedulePoll(next === Infinity ? 60_000 : next);
  }

  private deliver(queue: QueueName, consumer: LocalQueueConsumer, batch: StoredMessage[], now: number): void {
    for (const m of batch) {
      m.receiveCount += 1;
      m.visibleAt = now + consumer.visibilityTimeoutMs;
    }
    const deliveries = batch.map((m) => ({
      messageId: m.id,
      body: m.body,
      receiveCount: m.receiveCount,
      sentAt: m.sentAt,
    }));
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
          // Redelivered after the visibility timeout, counted from the delivery.
          m.visibleAt = Math.max(m.visibleAt, after);
          return true;
        }),
      );
      this.schedulePoll(POLL_MS);
    })();
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }
}
