import { randomUUID } from 'node:crypto';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import {
  QUEUE_FUNCTION_DEFAULTS,
  queueFunctions as allQueueFunctions,
  type QueueFunctionDefinition,
} from '../functions/queues.js';
import {
  MAPPING_CONCURRENCY,
  type MappingSizing,
  mappingOf,
  SES_DEFAULT_MAX_SEND_RATE,
} from '../functions/queue-sizing.js';
import { createHandlerLoader } from './handler-loader.js';
import { createLambdaContext } from './lambda-context.js';

/** The queue-function contract: `functions/queue/<name>.ts` exports `handler(event, context)`. */
export type QueueHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

/** One message as the in-process queue hands it over: the same id on every delivery, counted deliveries. */
export interface LocalDelivery {
  messageId: string;
  body: string;
  /** 1 on the first delivery. */
  receiveCount: number;
  /** Epoch ms the message was sent. */
  sentAt: number;
}

export interface QueueDispatcherOptions {
  /** Defaults to the real table, functions/queues.ts. */
  queueFunctions?: readonly QueueFunctionDefinition[];
  /** Defaults to importing `functions/queue/<handler>.ts`. */
  loadHandler?: (definition: QueueFunctionDefinition) => Promise<QueueHandler>;
  region?: string;
  /**
   * The SES send rate the sender's mapping is sized for (AWS: context `sesMaxSendRate`); defaults to the runtime's
   * SES_MAX_SEND_RATE, else SES's default.
   */
  sesMaxSendRate?: number;
}

/**
 * The local side of the queue-function table: delivers SQS-shaped batches of a queue to the function that
 * consumes it, as Lambda's event source mapping does, and reads the partial batch response back. The in-process
 * queue (delays, visibility, retries, DLQ) decides what to deliver when; this decides to whom and how.
 */
export function createQueueDispatcher(options: QueueDispatcherOptions = {}) {
  const table = options.queueFunctions ?? allQueueFunctions;
  const region = options.region ?? process.env['AWS_REGION'] ?? 'us-east-1';
  const defaultLoader = createHandlerLoader<QueueHandler>('queue');
  const loadHandler =
    options.loadHandler ?? ((definition: QueueFunctionDefinition) => defaultLoader(definition.handler));

  const consumerOf = (queue: string): QueueFunctionDefinition | undefined => table.find((d) => d.queue === queue);
  const sesMaxSendRate =
    options.sesMaxSendRate ?? (Number(process.env['SES_MAX_SEND_RATE']) || SES_DEFAULT_MAX_SEND_RATE);

  return {
    consumerOf,
    /** The SES send rate the sender's mapping is sized for. */
    sesMaxSendRate,
    /** Batch size the queue's function's table entry names, else the default (a sender's mapping: `sizingOf`). */
    batchSizeOf: (queue: string): number => consumerOf(queue)?.batchSize ?? QUEUE_FUNCTION_DEFAULTS.batchSize,
    /**
     * How the queue is polled: the batch size and concurrency its event source mapping gets on AWS, by the same rule
     * from the same table (functions/queue-sizing.ts). An entry without a concurrency (AWS refuses it at synth) is
     * polled as an unbounded mapping would be.
     */
    sizingOf: (queue: string): MappingSizing => {
      const definition = consumerOf(queue);
      if (!definition) return { batchSize: QUEUE_FUNCTION_DEFAULTS.batchSize, maxConcurrency: MAPPING_CONCURRENCY.max };
      return (
        mappingOf(definition, sesMaxSendRate) ?? {
          batchSize: definition.batchSize ?? QUEUE_FUNCTION_DEFAULTS.batchSize,
          maxConcurrency: MAPPING_CONCURRENCY.max,
        }
      );
    },
    /**
     * Runs one batch; resolves with the ids to deliver again (the partial batch response's failures — all of them
     * when the function throws).
     */
    async deliver(queue: string, deliveries: readonly LocalDelivery[]): Promise<{ failed: string[] }> {
      const definition = consumerOf(queue);
      if (!definition) throw new Error(`no function in functions/queues.ts consumes the "${queue}" queue`);
      const handler = await loadHandler(definition);
      const context = createLambdaContext({
        functionName: definition.handler,
        awsRequestId: randomUUID(),
        timeoutSeconds: definition.timeoutSeconds ?? QUEUE_FUNCTION_DEFAULTS.timeoutSeconds,
        memoryMb: definition.memoryMb,
        region,
      });
      try {
        const response = await handler(toSqsEvent(queue, deliveries, region), context);
        const known = new Set(deliveries.map((d) => d.messageId));
        return {
          failed: (response?.batchItemFailures ?? []).map((f) => f.itemIdentifier).filter((id) => known.has(id)),
        };
      } catch {
        return { failed: deliveries.map((d) => d.messageId) };
      }
    },
  };
}

/** The event Lambda's SQS event source mapping sends, for messages of a local queue. */
export function toSqsEvent(queue: string, deliveries: readonly LocalDelivery[], region = 'us-east-1'): SQSEvent {
  return {
    Records: deliveries.map(
      (d): SQSRecord => ({
        messageId: d.messageId,
        receiptHandle: `${d.messageId}#${d.receiveCount}`,
        body: d.body,
        attributes: {
          ApproximateReceiveCount: String(d.receiveCount),
          SentTimestamp: String(d.sentAt),
          SenderId: 'local',
          ApproximateFirstReceiveTimestamp: String(d.sentAt),
        },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: `arn:aws:sqs:${region}:000000000000:${queue}`,
        awsRegion: region,
      }),
    ),
  };
}
