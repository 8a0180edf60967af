import { Duration } from 'aws-cdk-lib';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { QUEUE_FUNCTION_DEFAULTS, type QueueFunctionDefinition } from '../functions/queues.js';
import type { QueueName } from '../shared/platform.js';
import type { SharedResources } from './shared-resources.js';
import { countLogMetrics, type CountedLogMetric } from './log-metrics.js';
import { constructIdOf, createNodeFunction, entryOf, grantTableAccess } from './node-function.js';
import type { WorkQueue } from './work-queue.js';

/** An entry of functions/queues.ts with its defaults filled in: the queue and its consumer read the same numbers. */
export const resolveQueueFunction = (definition: QueueFunctionDefinition) => ({
  ...QUEUE_FUNCTION_DEFAULTS,
  ...definition,
});

export interface QueueFunctionProps {
  definition: QueueFunctionDefinition;
  /** The queue it consumes (built by SharedResources, sized after this function's timeout). */
  source: WorkQueue;
  shared: SharedResources;
  table: TableV2;
  /** Environment shared by every function (TABLE_NAME, …). */
  environment: Record<string, string>;
  deletionProtection: boolean;
  /** Default: functions/queue/<handler>.ts. */
  entry?: string;
}

/**
 * One entry of functions/queues.ts: the consuming Lambda, with an event source mapping on its queue that reports
 * partial batch failures, the table access its entry names, what it does with the shared resources (sends,
 * schedules, e-mail) granted by SharedResources, and a metric filter per log metric of its entry.
 */
export class QueueFunction extends Construct {
  readonly function: NodejsFunction;
  readonly definition: ReturnType<typeof resolveQueueFunction>;
  /** The queue it consumes. */
  readonly source: WorkQueue;
  readonly logMetrics: readonly CountedLogMetric[];

  constructor(scope: Construct, id: string, props: QueueFunctionProps) {
    super(scope, id);
    const definition = resolveQueueFunction(props.definition);
    this.definition = definition;
    this.source = props.source;

    this.function = createNodeFunction(this, {
      entry: props.entry ?? entryOf('queue', definition.handler),
      description: `${definition.queue} queue -> ${definition.handler}`,
      timeoutSeconds: definition.timeoutSeconds,
      memoryMb: definition.memoryMb,
      environment: props.environment,
      deletionProtection: props.deletionProtection,
    });
    grantTableAccess(this.function, props.table, definition.tableAccess);
    props.shared.connect(this.function, definition.handler, definition);
    // Grants receive/delete on this queue only.
    this.function.addEventSource(
      new SqsEventSource(props.source.queue, {
        batchSize: definition.batchSize,
        maxBatchingWindow:
          definition.maxBatchingWindowSeconds > 0 ? Duration.seconds(definition.maxBatchingWindowSeconds) : undefined,
        reportBatchItemFailures: true,
        maxConcurrency: definition.maxConcurrency,
      }),
    );
    // e.g. ses-status's notifications for unknown message ids: acknowledged, never retried, so counted here.
    this.logMetrics = countLogMetrics(this, this.function.logGroup, definition.logMetrics);
  }
}

export interface QueueFunctionsProps {
  queueFunctions: readonly QueueFunctionDefinition[];
  /** Holds the queue of every entry (built from the same table) and grants the sends between them. */
  shared: SharedResources;
  table: TableV2;
  environment: Record<string, string>;
  deletionProtection: boolean;
  /** Default: functions/queue/<handler>.ts (tests point at a fixture). */
  entryOf?: (definition: QueueFunctionDefinition) => string;
}

/**
 * Every entry of the queue-function table, each consuming its queue of the shared resources: a function that `sendsTo` a
 * queue gets sqs:SendMessage on exactly that queue and its URL in `<NAME>_QUEUE_URL`.
 */
export function addQueueFunctions(scope: Construct, props: QueueFunctionsProps): Map<QueueName, QueueFunction> {
  const byQueue = new Map<QueueName, QueueFunction>();
  for (const definition of props.queueFunctions) {
    byQueue.set(
      definition.queue,
      new QueueFunction(scope, constructIdOf(definition.handler), {
        definition,
        source: props.shared.queueOf(definition.queue),
        shared: props.shared,
        table: props.table,
        environment: props.environment,
        deletionProtection: props.deletionProtection,
        entry: props.entryOf?.(definition),
      }),
    );
  }
  return byQueue;
}
