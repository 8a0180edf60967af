/**
 * The scheduled-function table: functions that run on a timer (an EventBridge rule on AWS, an interval on the local
 * runtime), declared once and read by infra/ and local/ alike, as functions/routes.ts and functions/queues.ts are.
 */
import type { QueueName } from '../shared/ports.js';
import type { TableAccess } from './routes.js';

export interface ScheduledFunctionDefinition {
  /** Module under functions/scheduled/ (without extension) whose `handler` export runs on the timer. */
  handler: string;
  everyMinutes: number;
  tableAccess: TableAccess;
  /** Queues the function sends to (sqs:SendMessage on exactly those, URLs in `<NAME>_QUEUE_URL`). */
  sendsTo?: readonly QueueName[];
  /** Maximum run time in seconds (default 60). */
  timeoutSeconds?: number;
}

export const scheduledFunctions: readonly ScheduledFunctionDefinition[] = [
  // The outbox sweeper: events written but never enqueued are enqueued (an accepted event is never lost). It pages
  // for up to SWEEP_BUDGET_MS (90 s, shared/domain/events/sweep-events.ts); 120 s leave room for the last page.
  { handler: 'sweep-events', everyMinutes: 5, tableAccess: 'read', sendsTo: ['events'], timeoutSeconds: 120 },
  // Beside it, the stuck-execution sweep (issue 18 §1): claims past their lease go back to the executor.
  { handler: 'sweep-executions', everyMinutes: 5, tableAccess: 'read', sendsTo: ['workflow'], timeoutSeconds: 60 },
];
