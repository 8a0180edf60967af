/**
 * The scheduled-function table: functions that run on a timer (an EventBridge rule on AWS, an interval on the local
 * runtime), declared once and read by infra/ and local/ alike, as functions/routes.ts and functions/queues.ts are.
 */
import type { QueueName } from '../shared/platform.js';
import type { LogMetric } from './queues.js';
import type { TableAccess } from './routes.js';

export interface ScheduledFunctionDefinition {
  /** Module under functions/scheduled/ (without extension) whose `handler` export runs on the timer. */
  handler: string;
  everyMinutes: number;
  tableAccess: TableAccess;
  /** Queues the function sends to (sqs:SendMessage on exactly those, URLs in `<NAME>_QUEUE_URL`). */
  sendsTo?: readonly QueueName[];
  /** Creates and reads clients' SES tenants and domain identities, and reads DNS (the domain poller). */
  managesSenders?: boolean;
  /** Maximum run time in seconds (default 60). */
  timeoutSeconds?: number;
  /** Log lines CloudWatch counts and alarms on (functions/queues.ts `LogMetric`). */
  logMetrics?: readonly LogMetric[];
}

export const scheduledFunctions: readonly ScheduledFunctionDefinition[] = [
  // The outbox sweeper: events written but never enqueued are enqueued (an accepted event is never lost). It pages
  // for up to SWEEP_BUDGET_MS (90 s, shared/domain/events/sweep-events.ts); 120 s leave room for the last page.
  { handler: 'sweep-events', everyMinutes: 5, tableAccess: 'read', sendsTo: ['events'], timeoutSeconds: 120 },
  // Beside it, the stuck-execution sweep: claims past their lease go back to the executor.
  {
    handler: 'sweep-executions',
    everyMinutes: 5,
    tableAccess: 'read',
    sendsTo: ['workflow'],
    timeoutSeconds: 60,
    logMetrics: [
      {
        // One stuck claim is already news: its worker died and the delayed re-dispatch meant to settle it was lost.
        metric: 'stuck_executions_swept',
        metricName: 'StuckExecutionsSwept',
        valueField: 'enqueued',
        alarmAt: 1,
        description:
          'sweep-executions found executions still claimed past their lease and sent them back to the executor ' +
          '(logs: metric = stuck_executions_swept): a worker died and its own re-dispatch was lost',
      },
    ],
  },
  // And the stuck-run sweep: journey runs due more than 2 minutes ago get a message for their current seq.
  {
    handler: 'sweep-runs',
    everyMinutes: 5,
    tableAccess: 'read',
    sendsTo: ['journey'],
    timeoutSeconds: 60,
    logMetrics: [
      {
        // One is already news: a worker died between a run's transition and its dispatch, or a dispatch failed.
        metric: 'stuck_runs_swept',
        metricName: 'StuckRunsSwept',
        valueField: 'enqueued',
        alarmAt: 1,
        description:
          'sweep-runs found journey runs due more than 2 minutes ago and sent them to advance-runs again (logs: ' +
          'metric = stuck_runs_swept): a worker died after a step or a run message was lost',
      },
    ],
  },
  // Segments' time-relative edges: contacts whose "within N days" conditions may have flipped since their last
  // evaluation go to the evaluator (8 due shards, ≤ 2,000 contacts a shard a run, oldest first); segment backfills
  // whose page chain went quiet for 2 minutes are sent on from their progress (which moves their stale entry).
  {
    handler: 'sweep-segment-edges',
    everyMinutes: 15,
    tableAccess: 'readWrite',
    sendsTo: ['segments'],
    timeoutSeconds: 60,
  },
  // The broadcasts' lost-chain net: a live broadcast whose start, snapshot shard, pacer or cancel job has been silent
  // for 2 minutes gets its step's message again (every step is idempotent on the broadcast's items).
  {
    handler: 'sweep-broadcasts',
    everyMinutes: 1,
    tableAccess: 'read',
    sendsTo: ['broadcast'],
    timeoutSeconds: 50,
    logMetrics: [
      {
        metric: 'stuck_broadcasts_swept',
        metricName: 'StuckBroadcastsSwept',
        valueField: 'resent',
        alarmAt: 1,
        description:
          'sweep-broadcasts sent a broadcast step again (logs: metric = stuck_broadcasts_swept): a worker died between ' +
          "a broadcast step's write and its next message, or a message was lost",
      },
    ],
  },
  // Sending domains still being checked (ownership record, then SES's DKIM) whose next check is due, within 45 s.
  { handler: 'poll-domains', everyMinutes: 5, tableAccess: 'readWrite', managesSenders: true, timeoutSeconds: 60 },
];
