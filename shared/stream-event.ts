import type { DynamoDBBatchItemFailure, DynamoDBStreamEvent } from 'aws-lambda';

/**
 * The change-stream event of an event source mapping with a tumbling window (DynamoDB Streams; @types/aws-lambda
 * types the window for Kinesis only). The window makes Lambda name the shard the records come from, which a
 * projection needs to keep its own position per shard: a shard's records arrive in order, and a batch handed over
 * again after a failure is the same records from the same position.
 */
export interface StreamWindowEvent extends DynamoDBStreamEvent {
  /** The stream shard every record of this batch belongs to. */
  shardId: string;
  /** The table's stream. */
  eventSourceARN: string;
  /** The window the batch falls in (ISO 8601 instants, end exclusive). */
  window: { start: string; end: string };
  /** What the previous invocation of this window answered as its `state`; `{}` at a window's start. */
  state: Record<string, string>;
  isFinalInvokeForWindow: boolean;
  isWindowTerminatedEarly: boolean;
}

/** A windowed function's answer: without `state`, Lambda counts the invocation as failed and retries the batch. */
export interface StreamWindowResponse {
  state: Record<string, string>;
  batchItemFailures?: DynamoDBBatchItemFailure[];
}
