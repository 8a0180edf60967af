import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { EventSourceMapping, FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { legacyPrefixesOf } from '../shared/adapters/dynamo/keys.js';
import { STREAM_FUNCTION_DEFAULTS, type StreamFunctionDefinition } from '../functions/streams.js';
import { DeadLetterQueue } from './dead-letter-queue.js';
import type { SharedResources } from './shared-resources.js';
import { countLogMetrics, type CountedLogMetric } from './log-metrics.js';
import { createNodeFunction, entryOf, grantTableAccess } from './node-function.js';

export interface StreamFunctionProps {
  definition: StreamFunctionDefinition;
  shared: SharedResources;
  table: TableV2;
  environment: Record<string, string>;
  deletionProtection: boolean;
}

/** The stream keeps a change 24 hours; a batch is retried until its records are that old. */
const STREAM_RETENTION = Duration.hours(24);

/**
 * One entry of functions/streams.ts: its Lambda (stream read, table access and sends as the entry says) and the event
 * source mapping on the table's stream — filtered to the entry's entities, so other changes cost no invocation;
 * a failing batch is bisected (retried whole when the entry has a tumbling window) and retried until its records are
 * a day old, then its position (shard, sequence numbers) goes to the on-failure queue, whose alarm fires on the first
 * message: nothing is skipped silently.
 */
export class StreamFunction extends Construct {
  readonly function: NodejsFunction;
  readonly definition: StreamFunctionDefinition;
  readonly deadLetters: DeadLetterQueue;
  readonly logMetrics: readonly CountedLogMetric[];

  constructor(scope: Construct, id: string, props: StreamFunctionProps) {
    super(scope, id);
    const { definition, table } = props;
    this.definition = definition;
    if (!table.tableStreamArn)
      throw new Error(`${definition.handler} reads the table's stream, but the table has none`);
    this.function = createNodeFunction(this, {
      entry: entryOf('stream', definition.handler),
      description: `table stream -> ${definition.handler}`,
      timeoutSeconds: definition.timeoutSeconds ?? STREAM_FUNCTION_DEFAULTS.timeoutSeconds,
      memoryMb: definition.memoryMb ?? STREAM_FUNCTION_DEFAULTS.memoryMb,
      environment: props.environment,
      deletionProtection: props.deletionProtection,
    });
    grantTableAccess(this.function, table, definition.tableAccess);
    table.grantStreamRead(this.function);
    props.shared.connect(this.function, definition.handler, definition);

    this.deadLetters = new DeadLetterQueue(this, 'OnFailure', {
      alarmDescription: `${definition.handler} gave up on a batch of table changes after a day of retries (its stream position is in this queue)`,
      removalPolicy: props.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    Validations.of(this.deadLetters.queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        "This queue is itself a dead-letter queue: the stream mapping's on-failure destination puts the position of a " +
        'batch it gave up on here; no redrive policy names it, so cdk-nag cannot tell.',
    });
    const legacyPrefixes = legacyPrefixesOf(definition.entities);
    new EventSourceMapping(this, 'Source', {
      target: this.function,
      eventSourceArn: table.tableStreamArn,
      startingPosition: definition.startAt === 'latest' ? StartingPosition.LATEST : StartingPosition.TRIM_HORIZON,
      batchSize: definition.batchSize ?? STREAM_FUNCTION_DEFAULTS.batchSize,
      maxBatchingWindow: Duration.seconds(
        definition.maxBatchingWindowSeconds ?? STREAM_FUNCTION_DEFAULTS.maxBatchingWindowSeconds,
      ),
      ...(definition.tumblingWindowSeconds === undefined
        ? { bisectBatchOnError: true }
        : {
            // The event then names its shard. One batch of a shard at a time, in order: a projection's position per
            // shard stays exact. Not bisected: such a function fails on its store only, never on one record, so a
            // half batch would fail as the whole did.
            tumblingWindow: Duration.seconds(definition.tumblingWindowSeconds),
            parallelizationFactor: 1,
            bisectBatchOnError: false,
          }),
      retryAttempts: 10_000,
      maxRecordAge: STREAM_RETENTION,
      onFailure: new SqsDlq(this.deadLetters.queue),
      // Lambda ORs a mapping's filters: an item naming one of the wanted entities, or one written before items named
      // their entity (no `entity` attribute) whose key has a wanted entity's prefix. local/engine/stream-poller.ts
      // applies the same rule.
      filters: [
        FilterCriteria.filter({ dynamodb: { NewImage: { entity: { S: [...definition.entities] } } } }),
        ...(legacyPrefixes.length === 0
          ? []
          : [
              FilterCriteria.filter({
                dynamodb: {
                  Keys: { pk: { S: legacyPrefixes.flatMap((prefix) => FilterRule.beginsWith(prefix)) } },
                  NewImage: { entity: { S: FilterRule.notExists() } },
                },
              }),
            ]),
        ...(definition.removedEntities && definition.removedEntities.length > 0
          ? [
              FilterCriteria.filter({
                eventName: ['REMOVE'],
                dynamodb: { OldImage: { entity: { S: [...definition.removedEntities] } } },
              }),
            ]
          : []),
      ],
    });
    this.deadLetters.queue.grantSendMessages(this.function);
    this.logMetrics = countLogMetrics(this, this.function.logGroup, definition.logMetrics);
  }
}
