import {
  SendMessageBatchCommand,
  SendMessageCommand,
  type BatchResultErrorEntry,
  type SendMessageBatchRequestEntry,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { backoffDelay, sleep, type BackoffOptions } from '../dynamo/backoff.js';
import {
  MAX_QUEUE_BATCH,
  MAX_QUEUE_DELAY_SECONDS,
  type BatchMessage,
  type Queue,
  type QueueMessages,
  type QueueName,
  type SendOptions,
} from '../../platform.js';

/** Queue name → SQS queue URL. Partial: a function is wired only with the queues it sends to. */
export type QueueUrls = Partial<Record<QueueName, string>>;

export interface SqsBatchOptions {
  /** SendMessageBatch calls in flight at once; default 10. */
  concurrency: number;
  /** Attempts of an entry SQS reported in `Failed` (the first included), and the wait between them. */
  backoff: BackoffOptions;
}

export const DEFAULT_SQS_BATCH: SqsBatchOptions = {
  concurrency: 10,
  backoff: { attempts: 4, baseMs: 50, maxMs: 1_000 },
};

/** A sendBatch that left messages unsent: how many of how many, and the first reason SQS gave. */
export class QueueBatchError extends Error {
  override readonly name = 'QueueBatchError';
  constructor(
    readonly queue: QueueName,
    readonly failed: number,
    readonly total: number,
    reason: string,
    options?: ErrorOptions,
  ) {
    super(`SqsQueue: ${failed} of ${total} messages to the ${queue} queue were not accepted (${reason})`, options);
  }
}

/**
 * The `Queue` port on SQS: `send` is one SendMessage, `sendBatch` SendMessageBatch calls; a message is a JSON body
 * (consumers parse it with zod). Queue URLs come from configuration (EVENTS_QUEUE_URL, WORKFLOW_QUEUE_URL) through
 * the composition, never from process.env here.
 */
export class SqsQueue implements Queue {
  private readonly batch: SqsBatchOptions;

  constructor(
    private readonly client: SQSClient,
    private readonly queueUrls: QueueUrls,
    batch: Partial<SqsBatchOptions> = {},
  ) {
    this.batch = { ...DEFAULT_SQS_BATCH, ...batch };
  }

  async send<Q extends QueueName>(queue: Q, message: QueueMessages[Q], options: SendOptions = {}): Promise<void> {
    const url = this.urlOf(queue);
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: url,
        MessageBody: JSON.stringify(message),
        // Always explicit, so a queue-level default delay never applies to a message meant for now.
        DelaySeconds: sqsDelaySeconds(options.delaySeconds),
      }),
    );
  }

  /**
   * SendMessageBatch, 10 entries a call (entry Id = the entry's index in its call), `concurrency` calls in flight.
   * Entries SQS answers in `Failed` are sent again with backoff — except a sender's fault, which no retry mends. A
   * call that throws (the SDK already retried it) stops the calls not yet started: SQS is likely unavailable. Then
   * it rejects with a QueueBatchError counting every message not accepted; the accepted ones stay sent.
   * Size: SQS caps a call's total body size (256 KiB, 1 MiB in the current API reference); 10 pointer messages are
   * under 1 KB. A caller of larger messages (an SES notification is a few KB) stays far below it too.
   */
  async sendBatch<Q extends QueueName>(queue: Q, messages: readonly BatchMessage<Q>[]): Promise<void> {
    if (messages.length === 0) return;
    const url = this.urlOf(queue);
    // Every delay is checked before anything is sent: a caller's bug sends nothing.
    const entries = messages.map(({ message, options = {} }) => ({
      MessageBody: JSON.stringify(message),
      DelaySeconds: sqsDelaySeconds(options.delaySeconds),
    }));
    const calls: (typeof entries)[] = [];
    for (let first = 0; first < entries.length; first += MAX_QUEUE_BATCH)
      calls.push(entries.slice(first, first + MAX_QUEUE_BATCH));

    let nextCall = 0;
    let unsent = 0;
    let reason: string | undefined;
    let thrown: { error: unknown } | undefined;
    const worker = async (): Promise<void> => {
      while (nextCall < calls.length && !thrown) {
        const outcome = await this.sendCall(url, calls[nextCall++]!);
        unsent += outcome.unsent;
        reason ??= outcome.reason;
        if (outcome.thrown) thrown ??= outcome.thrown;
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.batch.concurrency, calls.length) }, worker));
    unsent += calls.slice(nextCall).reduce((sum, call) => sum + call.length, 0);
    if (unsent > 0) {
      throw new QueueBatchError(
        queue,
        unsent,
        messages.length,
        reason ?? 'not sent',
        thrown ? { cause: thrown.error } : undefined,
      );
    }
  }

  /** One call's entries until accepted or out of attempts: how many were not accepted, and why. */
  private async sendCall(url: string, call: readonly Omit<SendMessageBatchRequestEntry, 'Id'>[]): Promise<CallOutcome> {
    const refused: string[] = [];
    let pending = call.map((entry, index) => ({ ...entry, Id: String(index) }));
    for (let attempt = 1; ; attempt += 1) {
      let failures: BatchResultErrorEntry[];
      try {
        failures =
          (await this.client.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: pending }))).Failed ?? [];
      } catch (error) {
        const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        return { unsent: refused.length + pending.length, reason: refused[0] ?? reason, thrown: { error } };
      }
      // Only entries of this call count (an Id SQS never got cannot fail).
      const sent = new Set(pending.map((entry) => entry.Id));
      const own = failures.filter((f) => f.Id !== undefined && sent.has(f.Id));
      refused.push(...own.filter((f) => f.SenderFault).map(describeFailure));
      const transient = own.filter((f) => !f.SenderFault);
      if (transient.length === 0) return { unsent: refused.length, reason: refused[0] };
      if (attempt >= this.batch.backoff.attempts) {
        return { unsent: refused.length + transient.length, reason: refused[0] ?? describeFailure(transient[0]!) };
      }
      const retry = new Set(transient.map((f) => f.Id));
      pending = pending.filter((entry) => retry.has(entry.Id));
      await sleep(backoffDelay(attempt, this.batch.backoff));
    }
  }

  private urlOf(queue: QueueName): string {
    const url = this.queueUrls[queue];
    if (!url) throw new Error(`SqsQueue: no URL configured for the ${queue} queue`);
    return url;
  }
}

interface CallOutcome {
  unsent: number;
  reason?: string;
  /** The call itself failed (after the SDK's retries): no further call is started. */
  thrown?: { error: unknown };
}

const describeFailure = (f: BatchResultErrorEntry): string =>
  `${f.Code ?? 'unknown'}${f.Message ? `: ${f.Message}` : ''}`;

/**
 * The port's delay as SQS takes it: whole seconds in 0–900. A negative delay (due time already past, or a late
 * clock read) is 0; a fraction rounds up so nothing is delivered early. Above 900 s, or not a number, is a
 * caller's bug — clamping would deliver early without a trace; such waits belong to the Scheduler.
 */
export function sqsDelaySeconds(delaySeconds = 0): number {
  if (!Number.isFinite(delaySeconds))
    throw new RangeError(`SqsQueue: delaySeconds must be a number, got ${delaySeconds}`);
  const whole = Math.max(0, Math.ceil(delaySeconds));
  if (whole > MAX_QUEUE_DELAY_SECONDS) {
    throw new RangeError(
      `SqsQueue: delaySeconds ${delaySeconds} exceeds SQS's ${MAX_QUEUE_DELAY_SECONDS}; use the Scheduler`,
    );
  }
  return whole;
}
