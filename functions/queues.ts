/**
 * The queue-function table: the single place an SQS consumer is declared (as functions/routes.ts is for HTTP).
 * infra/ builds, per entry, the queue, its DLQ, the Lambda and the event source mapping (partial batch responses);
 * the local runtime delivers SQS-shaped batches of the same queue to the same handler.
 *
 * The engine adds process-events (events queue) and execute-workflow (workflow queue).
 */
import type { QueueName } from '../shared/platform.js';
import type { TableAccess } from './routes.js';

/**
 * A structured log line a function writes with `metric: <metric>` that operators must hear about: on
 * AWS a metric filter on the function's logs counts it as `EmailLifecycle/<metricName>`, and an alarm on the on-call
 * topic fires when a 5-minute sum reaches `alarmAt`. Declared in the function's table entry (queues or scheduled).
 */
export interface LogMetric {
  /** The `metric` field of the log line, e.g. `stuck_executions_swept`. */
  metric: string;
  /** The CloudWatch metric it becomes, in the service's namespace. */
  metricName: string;
  /** A numeric field of the line to add up (`enqueued`); default: each line counts 1. */
  valueField?: string;
  /** The alarm fires when the 5-minute sum reaches this. */
  alarmAt: number;
  /** What a firing alarm means, for the on-call message. */
  description: string;
}

export interface QueueFunctionDefinition {
  /** Module under functions/queue/ (without extension) whose `handler` export consumes the queue. */
  handler: string;
  /** The queue this function consumes; the domain sends to it through the Queue port under this name. */
  queue: QueueName;
  tableAccess: TableAccess;
  /** Queues the function sends to: sqs:SendMessage on exactly those, their URLs in `<NAME>_QUEUE_URL`. */
  sendsTo?: readonly QueueName[];
  /** Creates one-time EventBridge schedules targeting the workflow or journey queue (waits over 15 minutes). */
  schedules?: boolean;
  /** Sends e-mail through SES (ses:SendEmail with the configuration set). */
  sendsEmail?: boolean;
  /**
   * Sends only the service's own e-mails (notices to clients, shared/domain/system-mail): ses:SendEmail, but it is no
   * lifecycle sender, so its concurrency is its own `maxConcurrency`, not the SES send rate.
   */
  sendsSystemMail?: boolean;
  /** The queue receives the SES configuration set's status events (through its SNS topic). */
  sesEvents?: boolean;
  /**
   * The longest a healthy run of one batch takes (deliver-webhook: an endpoint's 10 s timeout). The local queue's
   * compressed visibility timeout is never shorter, so a slow run is not delivered a second time beside itself.
   */
  longestRunSeconds?: number;
  /** Records per invocation (default 10). */
  batchSize?: number;
  /** Seconds to wait for a fuller batch (default 0). */
  maxBatchingWindowSeconds?: number;
  /** Deliveries before a message moves to the DLQ (default 5). */
  maxReceiveCount?: number;
  /**
   * Concurrent invocations the event source mapping may start (2–1000), overridden by context
   * `<handler>MaxConcurrency`. Every entry that does not send e-mail needs one on AWS; a sender is sized to the SES
   * account's send rate instead (infra/queue-concurrency.ts, docs/capacity.md "Bounded concurrency").
   */
  maxConcurrency?: number;
  /** Maximum run time in seconds (default 30); the queue's visibility timeout is 6× this. */
  timeoutSeconds?: number;
  /** Memory in MB (default 512). */
  memoryMb?: number;
  /** Log lines CloudWatch counts and alarms on. */
  logMetrics?: readonly LogMetric[];
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
  // 3 × 10 events in flight at ≥ 50 ms each: ≤ 600 events/s, 3× the target, within what one client's `CLIENT#`
  // configuration reads and the queued-event index absorb (docs/capacity.md "Bounded concurrency"); the workflow
  // queue downstream absorbs any rate.
  {
    handler: 'process-events',
    queue: 'events',
    tableAccess: 'readWrite',
    // journey: a run entered or resumed by the event goes to advance-runs.
    sendsTo: ['workflow', 'journey'],
    schedules: true,
    maxConcurrency: 3,
  },
  // One SES call a message; a send that fails transiently comes back after the visibility timeout. Its batch size
  // and concurrency on AWS follow the SES account's send rate (context `sesMaxSendRate`), not this entry.
  {
    handler: 'execute-workflow',
    queue: 'workflow',
    tableAccess: 'readWrite',
    // journey: an ended send step's execution wakes its run.
    sendsTo: ['workflow', 'journey'],
    schedules: true,
    sendsEmail: true,
    // Measured (docs/benchmarks.md, "Lambda memory, from measurement"): at 512 MB a send's CPU time takes most of the
    // 150 ms its mapping is sized for (functions/queue-sizing.ts), so the sender would fall short of the SES rate.
    memoryMb: 1024,
  },
  // Journey runs: one step transition a message — 1 BatchGetItem + 1 TransactWriteItems + 1 SQS or Scheduler call
  // (a send step's transition dispatches its execution to the workflow queue instead). 10 × 10 runs in flight at
  // ≥ 40 ms each: ≤ 2 500 transitions/s, far above the events that start and resume runs; a backlog only delays.
  {
    handler: 'advance-runs',
    queue: 'journey',
    tableAccess: 'readWrite',
    sendsTo: ['journey', 'workflow'],
    schedules: true,
    maxConcurrency: 10,
  },
  // SES status notifications: SES configuration set → SNS topic → this queue. Filled by SES, not by a
  // function; each message costs ≤ 3 DynamoDB requests for a known message id.
  // A notification that is the evidence a stranded execution waits for wakes it on the workflow queue.
  // 6 × 10 notifications in flight at ≥ 30 ms each: ≤ 2 000/s, twice the target's 1 000/s, so a backlog drains
  // (notifications follow the sends, ≈ 5 an e-mail, so the sender's ceiling bounds their steady rate).
  {
    handler: 'ses-status',
    queue: 'ses-status',
    tableAccess: 'readWrite',
    sesEvents: true,
    sendsTo: ['workflow'],
    maxConcurrency: 6,
    logMetrics: [
      {
        // Acknowledged, never retried. A few are expected (an erased contact's late opens and clicks); dozens in
        // 5 minutes mean notifications no longer find their e-mails (message ids not recorded, another table).
        metric: 'ses_status_unknown_message',
        metricName: 'SesStatusUnknownMessages',
        alarmAt: 10,
        description:
          'ses-status acknowledged 10 or more SES notifications in 5 minutes whose message id no sent e-mail has ' +
          '(logs: metric = ses_status_unknown_message); delivery tracking may be losing its e-mails',
      },
      {
        // The service's own mail (its configuration set): sign-in links and invitations to addresses that bounce.
        metric: 'system_mail_bounce',
        metricName: 'SystemMailBounces',
        alarmAt: 10,
        description:
          "10 or more of the service's own e-mails (sign-in links, invitations, notices) bounced in 5 minutes (logs: " +
          'metric = system_mail_bounce): someone may be using sign-in or invitations to mail made-up addresses',
      },
      {
        metric: 'system_mail_complaint',
        metricName: 'SystemMailComplaints',
        alarmAt: 1,
        description:
          "A recipient marked one of the service's own e-mails (sign-in links, invitations) as spam (logs: metric = " +
          'system_mail_complaint): someone may be using sign-in or invitations to mail people who did not ask',
      },
    ],
  },
  // The service's own e-mails a request asked for (sign-in links, invitations), sent after its answer so the answer's
  // time says nothing about the address. One SES call and ≤ 4 DynamoDB requests a message; a person waits for it,
  // so no batching window. Its concurrency is its own (system mail is no lifecycle sender).
  {
    handler: 'send-system-mail',
    queue: 'system-mail',
    tableAccess: 'readWrite',
    sendsSystemMail: true,
    maxConcurrency: 2,
    timeoutSeconds: 20,
  },
  // Webhook deliveries: one signed POST a message, ≤ 10 s each, the records of a batch in parallel.
  // Two lanes: endpoints that answer are served here; a delivery to an endpoint that is failing (failing_since) is
  // moved to the failing lane, whose own small concurrency is all a dead endpoint's 10 s timeouts can hold, so one
  // client's dead endpoint never takes a healthy endpoint's turn (docs/benchmarks.md "Webhooks"). Retries come back
  // on the failing lane (SQS delay ≤ 15 min, Scheduler beyond); the system mail tells a client its endpoint was
  // disabled.
  {
    handler: 'deliver-webhook',
    queue: 'webhooks',
    tableAccess: 'readWrite',
    sendsTo: ['webhooks-failing'],
    schedules: true,
    sendsSystemMail: true,
    maxConcurrency: 20,
    timeoutSeconds: 30,
    longestRunSeconds: 15,
  },
  {
    handler: 'deliver-webhook-failing',
    queue: 'webhooks-failing',
    tableAccess: 'readWrite',
    sendsTo: ['webhooks-failing'],
    schedules: true,
    sendsSystemMail: true,
    maxConcurrency: 5,
    timeoutSeconds: 30,
    longestRunSeconds: 15,
    logMetrics: [
      {
        metric: 'webhook_message_failed',
        metricName: 'WebhookMessagesFailed',
        alarmAt: 50,
        description:
          'deliver-webhook gave up on 50 or more webhook messages in 5 minutes after their 8th attempt (logs: metric = ' +
          "webhook_message_failed): clients' endpoints are down; the messages are kept for replay",
      },
    ],
  },
  // Segment membership: one message is ≤ 25 contacts (1 BatchGetItem of their contact, counters and state, + 1
  // TransactWriteItems when some moved) or one backfill page. 5 × 10 messages in flight keep a 10,000-change burst
  // (≈ 400 messages) draining in seconds without crowding the table's other writers; a backlog only delays membership.
  {
    handler: 'evaluate-segments',
    queue: 'segments',
    tableAccess: 'readWrite',
    sendsTo: ['segments'],
    maxConcurrency: 5,
  },
  // Broadcasts: one engine step a message — a start, a snapshot page (1 BatchGet + 1 Query + 1 transaction of ≤ 100
  // items), a pacer pass (1 BatchGet + ≤ 16 Queries + ≤ 5 writes + ≤ 21 SQS calls), a cancel page. Chains are one per
  // source shard (≤ 16) and one pacer per broadcast, so 10 in flight keep ≈ 10 broadcasts' snapshots moving at once;
  // sends are bounded by the pace clocks, not by this concurrency.
  {
    handler: 'run-broadcasts',
    queue: 'broadcast',
    tableAccess: 'readWrite',
    sendsTo: ['broadcast', 'workflow'],
    schedules: true,
    maxConcurrency: 10,
  },
];
