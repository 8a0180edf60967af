import type { BatchMessage, Queue, QueueMessages, QueueName, SendOptions } from '../../platform.js';
import type { FaultCounts, FaultDice } from './fault-dice.js';
import { sqsInternalError, sqsThrottled } from './fault-errors.js';
import type { FaultKind } from './fault-spec.js';

export type SqsFaultKind = FaultKind<'sqs'>;

/**
 * A Queue whose sends fail before anything is enqueued, as SqsQueue throws once the SDK gave up: one draw per
 * `send` and per `sendBatch` call (the whole batch fails; nothing of it is enqueued).
 */
export class FaultyQueue implements Queue {
  constructor(
    private readonly inner: Queue,
    private readonly dice: FaultDice<SqsFaultKind>,
  ) {}

  async send<Q extends QueueName>(queue: Q, message: QueueMessages[Q], options?: SendOptions): Promise<void> {
    this.inject();
    await this.inner.send(queue, message, options);
  }

  async sendBatch<Q extends QueueName>(queue: Q, messages: readonly BatchMessage<Q>[]): Promise<void> {
    // An empty batch sends no request, so nothing can fail.
    if (messages.length > 0) this.inject();
    await this.inner.sendBatch(queue, messages);
  }

  get counts(): FaultCounts<SqsFaultKind> {
    return this.dice.counts();
  }

  private inject(): void {
    const fault = this.dice.draw();
    if (fault === undefined) return;
    this.dice.record(fault);
    throw fault === 'throttle' ? sqsThrottled() : sqsInternalError();
  }
}
