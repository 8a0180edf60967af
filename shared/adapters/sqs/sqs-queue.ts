import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { MAX_QUEUE_DELAY_SECONDS, type Queue, type QueueMessages, type QueueName, type SendOptions } from '../../ports.js';

/** Queue name → SQS queue URL. Partial: a function is wired only with the queues it sends to. */
export type QueueUrls = Partial<Record<QueueName, string>>;

/**
 * The `Queue` port on SQS: one SendMessage per call, the message as a JSON body (consumers parse it with zod).
 * Queue URLs come from configuration (EVENTS_QUEUE_URL, WORKFLOW_QUEUE_URL) through the composition, never from
 * process.env here.
 */
export class SqsQueue implements Queue {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrls: QueueUrls,
  ) {}

  async send<Q extends QueueName>(queue: Q, message: QueueMessages[Q], options: SendOptions = {}): Promise<void> {
    const url = this.queueUrls[queue];
    if (!url) throw new Error(`SqsQueue: no URL configured for the ${queue} queue`);
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: url,
        MessageBody: JSON.stringify(message),
        // Always explicit, so a queue-level default delay never applies to a message meant for now.
        DelaySeconds: sqsDelaySeconds(options.delaySeconds),
      }),
    );
  }
}

/**
 * The port's delay as SQS takes it: whole seconds in 0–900. A negative delay (due time already past, or a late
 * clock read) is 0; a fraction rounds up so nothing is delivered early. Above 900 s, or not a number, is a
 * caller's bug — clamping would deliver early without a trace; such waits belong to the Scheduler.
 */
export function sqsDelaySeconds(delaySeconds = 0): number {
  if (!Number.isFinite(delaySeconds)) throw new RangeError(`SqsQueue: delaySeconds must be a number, got ${delaySeconds}`);
  const whole = Math.max(0, Math.ceil(delaySeconds));
  if (whole > MAX_QUEUE_DELAY_SECONDS) {
    throw new RangeError(`SqsQueue: delaySeconds ${delaySeconds} exceeds SQS's ${MAX_QUEUE_DELAY_SECONDS}; use the Scheduler`);
  }
  return whole;
}
