/**
 * The queue-function table: the single place an SQS consumer is declared (as functions/routes.ts is for HTTP).
 * infra/ builds, per entry, the queue, its DLQ, the Lambda and the event source mapping (partial batch responses);
 * the local runtime delivers SQS-shaped batches of the same queue to the same handler.
 *
 * The engine (issue 8) adds process-events (events queue) and execute-workflow (workflow queue).
 */
import type { QueueName } from '../shared/ports.js';
import type { TableAccess } from './routes.js';

export interface QueueFunctionDefinition {
  /** Module under functions/queue/ (without extension) whose `handler` export consumes the queue. */
  handler: string;
  /** The queue this function consumes; the domain sends to it through the Queue port under this name. */
  queue: QueueName;
  tableAccess: TableAccess;
  /** Queues the function sends to: sqs:SendMessage on exactly those, their URLs in `<NAME>_QUEUE_URL`. */
  sendsTo?: readonly QueueName[];
  /** Creates one-time EventBridge schedules targeting the workflow queue (waits over 15 minutes). */
  schedules?: boolean;
  /** Sends e-mail through SES (ses:SendEmail with the configuration set). */
  sendsEmail?: boolean;
  /** The queue receives the SES configuration set's status events (through its SNS topic). */
  sesEvents?: boolean;
  /** Records per invocation (default 10). */
  batchSize?: number;
  /** Seconds to wait for a fuller batch (default 0). */
  maxBatchingWindowSeconds?: number;
  /** Deliveries before a message moves to the DLQ (default 5). */
  maxReceiveCount?: number;
  /** Concurrent invocations the event source mapping may start (2–1000; default: unbounded). */
  maxConcurrency?: number;
  /** Maximum run time in seconds (default 30); the queue's visibility timeout is 6× this. */
  timeoutSeconds?: number;
  /** Memory in MB (default 512). */
  memoryMb?: number;
}

export const QUEUE_FUNCTION_DEFAULTS = {
  batchSize: 10,
  maxBatchingWindowSeconds: 0,
  maxReceiveCount: 5,
  timeoutSeconds: 30,
  memoryMb: 512,
} as const;

/** SQS redelivers a message only after this many function timeouts have passed (AWS's advice for Lambda: 6). */
export const VISIBILITY_TIMEOUT_FACTOR = 6;

export const queueFunctions: readonly QueueFunctionDefinition[] = [
  // Processing an event reads 3 items and writes 1 transaction; 10 a batch keeps a cold batch well under 30 s.
  { handler: 'process-events', queue: 'events', tableAccess: 'readWrite', sendsTo: ['workflow'], schedules: true },
  // One SES call a message; a send that fails transiently comes back after the visibility timeout.
  { handler: 'execute-workflow', queue: 'workflow', tableAccess: 'readWrite', sendsTo: ['workflow'], schedules: true, sendsEmail: true },
  // SES status notifications (issue 9): SES configuration set → SNS topic → this queue. Filled by SES, not by a
  // function; each message costs ≤ 3 DynamoDB requests for a known message id.
  // A notification that is the evidence a stranded execution waits for wakes it on the workflow queue (issue 18).
  { handler: 'ses-status', queue: 'ses-status', tableAccess: 'readWrite', sesEvents: true, sendsTo: ['workflow'] },
];
