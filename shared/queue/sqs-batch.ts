import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from '../validation/zod.js';
import { getContainer, type DepsOf, type Provider } from '../composition/container.js';
import { PermanentFailure } from '../errors.js';
import { logger } from '../logger.js';
import { issuesToItems } from '../validation/issue-items.js';

/** The providers a queue function lists: its `deps` hold exactly those ports (plus config and the request counter). */
export type QueuePorts = readonly Provider<any>[];

export interface QueueMessageContext<P extends QueuePorts = QueuePorts> {
  deps: DepsOf<P>;
  messageId: string;
  /** 1 on the first delivery (SQS `ApproximateReceiveCount`). */
  receiveCount: number;
  record: SQSRecord;
  lambdaContext: Context;
}

export interface SqsBatchOptions<T, P extends QueuePorts> {
  /**
   * Records a permanent failure on the item the message points at. The message is acknowledged once this resolves;
   * if it throws, the message is retried like any other failure, so the record is never lost.
   */
  onPermanentFailure?: (message: T, failure: PermanentFailure, ctx: QueueMessageContext<P>) => Promise<void>;
  /** Records of one batch run concurrently (default) or one after the other. */
  processInParallel?: boolean;
}

export type SqsBatchHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

/** A body that is not JSON or does not match the schema: no item to record it on, so it goes to the DLQ. */
export class MalformedMessage extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedMessage';
  }
}

/**
 * An SQS consumer with partial batch responses (Powertools batch): every body is parsed with `schema`, then
 * `handle` runs once per message with the function's ports. Outcomes per message:
 * - resolves → acknowledged;
 * - throws `PermanentFailure` → `onPermanentFailure` records it, logged, acknowledged;
 * - throws anything else, or the body is malformed → reported in `batchItemFailures`: SQS delivers it again after
 *   the visibility timeout, and after maxReceiveCount deliveries moves it to the queue's DLQ.
 */
export function sqsBatch<S extends z.ZodMiniType, const P extends QueuePorts>(
  schema: S,
  ports: P,
  handle: (message: z.output<S>, ctx: QueueMessageContext<P>) => Promise<void>,
  options: SqsBatchOptions<z.output<S>, P> = {},
): SqsBatchHandler {
  return async (event, context) => {
    logger.addContext(context);
    const deps = getContainer().resolve(ports);

    const processRecord = async (record: SQSRecord): Promise<void> => {
      const log = { message_id: record.messageId, receive_count: receiveCountOf(record) };
      const message = parseBody(record, schema, log);
      const ctx: QueueMessageContext<P> = {
        deps,
        messageId: record.messageId,
        receiveCount: log.receive_count,
        record,
        lambdaContext: context,
      };
      try {
        await handle(message, ctx);
      } catch (error) {
        if (!(error instanceof PermanentFailure)) {
          logger.warn('message failed; SQS delivers it again', { ...log, error });
          throw error;
        }
        logger.warn('message failed permanently; acknowledged', { ...log, reason: error.reason, error });
        await options.onPermanentFailure?.(message, error, ctx);
      }
    };

    // One processor per invocation: its state is per batch, and the local runtime may run two batches at once.
    const processor = new BatchProcessor(EventType.SQS);
    return processPartialResponse(event, processRecord, processor, {
      context,
      // A batch that failed as a whole is reported item by item too (ReportBatchItemFailures is always on).
      throwOnFullBatchFailure: false,
      processInParallel: options.processInParallel ?? true,
    });
  };
}

function parseBody<S extends z.ZodMiniType>(record: SQSRecord, schema: S, log: Record<string, unknown>): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(record.body);
  } catch {
    logger.error('message body is not JSON; it goes to the DLQ', log);
    throw new MalformedMessage('body is not JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    // Field paths and conditions only: never the body's values.
    logger.error('message body does not match its schema; it goes to the DLQ', {
      ...log,
      errors: issuesToItems(parsed.error.issues),
    });
    throw new MalformedMessage('body does not match the schema');
  }
  return parsed.data;
}

function receiveCountOf(record: SQSRecord): number {
  const count = Number(record.attributes?.ApproximateReceiveCount);
  return Number.isInteger(count) && count > 0 ? count : 1;
}
