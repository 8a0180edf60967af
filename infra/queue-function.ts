import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { ComparisonOperator, TreatMissingData, type Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  QUEUE_FUNCTION_DEFAULTS,
  VISIBILITY_TIMEOUT_FACTOR,
  type QueueFunctionDefinition,
} from '../functions/queues.js';
import { constructIdOf, createNodeFunction, entryOf, grantTableAccess } from './node-function.js';

export interface QueueFunctionProps {
  definition: QueueFunctionDefinition;
  table: TableV2;
  /** Environment shared by every function (TABLE_NAME, …). */
  environment: Record<string, string>;
  deletionProtection: boolean;
  /** Default: functions/queue/<handler>.ts. */
  entry?: string;
}

/**
 * One entry of functions/queues.ts: the queue (SQS-managed encryption, TLS only, visibility 6× the function
 * timeout), its DLQ (after maxReceiveCount deliveries) with an alarm on its depth, and the consuming Lambda with an
 * event source mapping that reports partial batch failures.
 */
export class QueueFunction extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly deadLetterAlarm: Alarm;
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: QueueFunctionProps) {
    super(scope, id);
    const definition = { ...QUEUE_FUNCTION_DEFAULTS, ...props.definition };
    const removalPolicy = props.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.deadLetterQueue = new Queue(this, 'DeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy,
    });
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(definition.timeoutSeconds * VISIBILITY_TIMEOUT_FACTOR),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: definition.maxReceiveCount },
      removalPolicy,
    });
    this.deadLetterAlarm = this.deadLetterQueue.metricApproximateNumberOfMessagesVisible().createAlarm(this, 'DeadLettersAlarm', {
      alarmDescription: `Messages of the ${definition.queue} queue failed ${definition.maxReceiveCount} times (DLQ)`,
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    this.function = createNodeFunction(this, {
      entry: props.entry ?? entryOf('queue', definition.handler),
      description: `${definition.queue} queue -> ${definition.handler}`,
      timeoutSeconds: definition.timeoutSeconds,
      memoryMb: definition.memoryMb,
      environment: props.environment,
      deletionProtection: props.deletionProtection,
    });
    grantTableAccess(this.function, props.table, definition.tableAccess);
    // Grants receive/delete on this queue only.
    this.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: definition.batchSize,
        maxBatchingWindow:
          definition.maxBatchingWindowSeconds > 0 ? Duration.seconds(definition.maxBatchingWindowSeconds) : undefined,
        reportBatchItemFailures: true,
        maxConcurrency: definition.maxConcurrency,
      }),
    );
  }
}

/** Env name carrying a queue's URL to the functions that send to it, e.g. `WORKFLOW_QUEUE_URL`. */
export const queueUrlVariable = (queue: string): string => `${queue.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_QUEUE_URL`;

export interface QueueFunctionsProps {
  queueFunctions: readonly QueueFunctionDefinition[];
  table: TableV2;
  environment: Record<string, string>;
  deletionProtection: boolean;
  /** Default: functions/queue/<handler>.ts (tests point at a fixture). */
  entryOf?: (definition: QueueFunctionDefinition) => string;
}

/**
 * Every entry of the queue-function table, then the sends between them: a function that `sendsTo` a queue gets
 * sqs:SendMessage on exactly that queue and its URL in `<NAME>_QUEUE_URL`.
 */
export function addQueueFunctions(scope: Construct, props: QueueFunctionsProps): Map<string, QueueFunction> {
  const byQueue = new Map<string, QueueFunction>();
  for (const definition of props.queueFunctions) {
    if (byQueue.has(definition.queue)) throw new Error(`queue "${definition.queue}" has two functions in functions/queues.ts`);
    byQueue.set(
      definition.queue,
      new QueueFunction(scope, constructIdOf(definition.handler), {
        definition,
        table: props.table,
        environment: props.environment,
        deletionProtection: props.deletionProtection,
        entry: props.entryOf?.(definition),
      }),
    );
  }
  for (const definition of props.queueFunctions) {
    const sender = byQueue.get(definition.queue)!;
    for (const target of definition.sendsTo ?? []) {
      const receiver = byQueue.get(target);
      if (!receiver) throw new Error(`${definition.handler} sends to "${target}", which no queue function consumes`);
      receiver.queue.grantSendMessages(sender.function);
      sender.function.addEnvironment(queueUrlVariable(target), receiver.queue.queueUrl);
    }
  }
  return byQueue;
}
