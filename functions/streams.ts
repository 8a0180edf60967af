/**
 * The stream-function table: functions fed by the table's change stream (DynamoDB Streams, NEW_AND_OLD_IMAGES),
 * declared once and read by infra/ (the event source mapping, its filter, its on-failure queue) and local/ (a poller
 * over DynamoDB Local's stream), as functions/routes.ts, queues.ts and scheduled.ts are.
 */
import { ENTITY, type Entity } from '../shared/adapters/dynamo/keys.js';
import type { QueueName } from '../shared/platform.js';
import { COUNTS_BATCHING_WINDOW_SECONDS } from '../shared/public/stats-rules.js';
import type { LogMetric } from './queues.js';
import type { TableAccess } from './routes.js';

export interface StreamFunctionDefinition {
  /** Module under functions/stream/ (without extension) whose `handler` export takes a DynamoDBStreamEvent. */
  handler: string;
  /**
   * The item kinds (their `entity` attribute) whose changes the function needs: on AWS the event source mapping's
   * filter lets only those through (filtered records cost no invocation); locally the poller applies the same filter.
   * Items written before the attribute existed pass on their key prefix (ENTITY_PK_PREFIX), a coarser match the
   * function tells apart itself.
   */
  entities: readonly Entity[];
  /**
   * The item kinds whose removal the function needs (a REMOVE record has no new image, so `entities` never lets it
   * through): matched on the old image's `entity`.
   */
  removedEntities?: readonly Entity[];
  tableAccess: TableAccess;
  /** Queues the function sends to (sqs:SendMessage on exactly those, URLs in `<NAME>_QUEUE_URL`). */
  sendsTo?: readonly QueueName[];
  /** Records per invocation (default 100). */
  batchSize?: number;
  /** Seconds to wait for a fuller batch (default 1). */
  maxBatchingWindowSeconds?: number;
  /**
   * Seconds of a tumbling window: the mapping groups a shard's records in windows of this length, and the event then
   * names the shard (shared/stream-event.ts, StreamWindowEvent), which a projection keeping a position per shard
   * needs. The answer must carry `state` (StreamWindowResponse), else the batch counts as failed. A windowed mapping
   * reads each shard one batch at a time, in order, and retries a failed batch whole (no bisecting).
   */
  tumblingWindowSeconds?: number;
  /**
   * Where the mapping starts reading when it is created (default `trim_horizon`: every retained change, so a mapping
   * created again misses nothing). `latest` for a projection that takes over from something that counted the past
   * itself: starting at the trim horizon would count up to 24 hours of changes a second time.
   */
  startAt?: 'trim_horizon' | 'latest';
  /** Maximum run time in seconds (default 60). */
  timeoutSeconds?: number;
  /** Memory in MB (default 512); the cost bench's sizing pass measures what each size costs (docs/benchmarks.md). */
  memoryMb?: number;
  /** Log lines CloudWatch counts and alarms on. */
  logMetrics?: readonly LogMetric[];
}

export const STREAM_FUNCTION_DEFAULTS = {
  batchSize: 100,
  maxBatchingWindowSeconds: 1,
  timeoutSeconds: 60,
  memoryMb: 512,
} as const;

export const streamFunctions: readonly StreamFunctionDefinition[] = [
  // Webhook facts and the change router: status logs of sent e-mails, contacts' subscription changes, executions ending
  // failed or skipped, sending domains verified or failed, a client's tenant paused or resumed, and journey runs
  // entering, leaving a step and ending, and broadcasts starting and completing become webhook messages and their deliveries; contacts and their event counters
  // whose change meets a segment's watched attributes go to the segments queue. A failed batch is retried (bisected) until it
  // succeeds or its records are a day old, then its position goes to the on-failure queue: never silently skipped.
  {
    handler: 'webhook-facts',
    entities: [
      ENTITY.sentEmailLog,
      ENTITY.contact,
      ENTITY.execution,
      ENTITY.domain,
      ENTITY.sender,
      ENTITY.run,
      ENTITY.contactCounters,
      ENTITY.contactEngagement,
      ENTITY.broadcast,
    ],
    tableAccess: 'readWrite',
    // segments: the change router's contacts whose change may move a segment membership (segment-routing.ts).
    sendsTo: ['webhooks', 'segments'],
    // Measured (docs/benchmarks.md, "Lambda memory, from measurement"): ~1 ms a batch at 512 and 1,024 MB alike, so
    // the same GB-s, and half the cold start at 1,024 MB.
    memoryMb: 1024,
  },
  // Day counters: events processed, executions moving (claims, ends, deferrals) and status logs written become the
  // day rows GET /client/stats reads (shared/domain/stats/counter-facts.ts), with each broadcast's totals; segment
  // member entries written and removed become each segment's size. The only writer of those rows: a batch's
  // facts summed per row, with the shard's position in the same transaction, so a retried batch counts once. Big,
  // slow-filling batches keep the writes per fact low; the counts follow the facts by the batching window.
  {
    handler: 'day-counters',
    entities: [ENTITY.event, ENTITY.execution, ENTITY.sentEmailLog, ENTITY.run, ENTITY.segmentMember],
    // A member entry deleted is a contact leaving its segment: the gauge counts it down.
    removedEntities: [ENTITY.segmentMember],
    tableAccess: 'readWrite',
    batchSize: 1000,
    maxBatchingWindowSeconds: COUNTS_BATCHING_WINDOW_SECONDS,
    tumblingWindowSeconds: 900,
    // Before this function, each fact counted itself: its first mapping takes over from the latest change. A mapping
    // created again later (its old one deleted after) overlaps the old one, and the positions make that exact.
    startAt: 'latest',
  },
];
