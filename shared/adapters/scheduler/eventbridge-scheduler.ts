import { CreateScheduleCommand, DeleteScheduleCommand, type SchedulerClient } from '@aws-sdk/client-scheduler';
import type { Clock, QueueMessages, QueueName, Scheduler } from '../../platform.js';
import { scheduleName } from './schedule-name.js';

export interface EventBridgeSchedulerConfig {
  /** Schedule group the one-time schedules live in (created by the stack). */
  groupName: string;
  /** Role EventBridge Scheduler assumes to call sqs:SendMessage on the target queue. */
  roleArn: string;
  /** Queue name → SQS queue ARN. Partial: a function is wired only with the queues it schedules to. */
  queueArns: Partial<Record<QueueName, string>>;
  /** Where Scheduler puts a message it could not deliver after its own retries (24 h by default); else dropped. */
  deadLetterArn?: string;
}

/** The earliest lead time given to at(): Scheduler fires with minute precision and refuses a time in the past. */
export const MIN_LEAD_MS = 60_000;

/**
 * The `Scheduler` port on EventBridge Scheduler: one one-time schedule per call, deleted once it ran, whose target
 * sends the message (JSON, the same body SqsQueue sends) to the queue.
 */
export class EventBridgeScheduler implements Scheduler {
  constructor(
    private readonly client: SchedulerClient,
    private readonly config: EventBridgeSchedulerConfig,
    private readonly clock: Clock = { now: () => new Date() },
  ) {}

  async scheduleAt<Q extends QueueName>(
    instant: Date,
    queue: Q,
    message: QueueMessages[Q],
    name: string,
  ): Promise<void> {
    const queueArn = this.config.queueArns[queue];
    if (!queueArn) throw new Error(`EventBridgeScheduler: no ARN configured for the ${queue} queue`);
    const command = new CreateScheduleCommand({
      Name: scheduleName(name),
      GroupName: this.config.groupName,
      ScheduleExpression: atExpression(instant, this.clock.now()),
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: queueArn,
        RoleArn: this.config.roleArn,
        Input: JSON.stringify(message),
        ...(this.config.deadLetterArn ? { DeadLetterConfig: { Arn: this.config.deadLetterArn } } : {}),
      },
    });
    try {
      await this.client.send(command);
    } catch (error) {
      // The name is the idempotency key: the schedule already exists, so the message will be delivered once.
      if ((error as Error).name === 'ConflictException') return;
      throw error;
    }
  }

  async cancel(name: string): Promise<void> {
    try {
      await this.client.send(new DeleteScheduleCommand({ Name: scheduleName(name), GroupName: this.config.groupName }));
    } catch (error) {
      // Ran already (it deleted itself) or never made: nothing is left to release.
      if ((error as Error).name === 'ResourceNotFoundException') return;
      throw error;
    }
  }
}

/**
 * `at(yyyy-mm-ddThh:mm:ss)` in UTC for max(instant, now + 1 min), rounded up to the whole second. Callers may pass
 * an instant that is already due (a deferral computed a moment ago, a slow retry) and must not lose it; at() only
 * accepts a future time and fires within the minute after it, so one minute of lead keeps the schedule valid and
 * delivers it as soon as Scheduler can. Rounding up never fires before the requested instant.
 */
export function atExpression(instant: Date, now: Date): string {
  if (Number.isNaN(instant.getTime())) throw new RangeError('EventBridgeScheduler: the instant is not a valid date');
  const at = Math.max(instant.getTime(), now.getTime() + MIN_LEAD_MS);
  const wholeSecond = Math.ceil(at / 1000) * 1000;
  return `at(${new Date(wholeSecond).toISOString().slice(0, 19)})`;
}
