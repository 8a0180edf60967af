import { NestedStack } from 'aws-cdk-lib';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import type { QueueFunctionDefinition } from '../functions/queues.js';
import { scheduledFunctions } from '../functions/scheduled.js';
import { streamFunctions } from '../functions/streams.js';
import { constructIdOf } from './node-function.js';
import { addQueueFunctions, type QueueFunction } from './queue-function.js';
import { ScheduledFunction } from './scheduled-function.js';
import type { SharedResources } from './shared-resources.js';
import { StreamFunction } from './stream-function.js';

export interface EngineStackProps {
  /** functions/queues.ts as built on AWS (infra/queue-concurrency.ts sized every mapping). */
  queueFunctions: readonly QueueFunctionDefinition[];
  table: TableV2;
  shared: SharedResources;
  /** Environment shared by every function (TABLE_NAME, …). */
  environment: Record<string, string>;
  deletionProtection: boolean;
}

/**
 * The engine as a nested stack: the consumer of each queue of functions/queues.ts, the functions of
 * functions/scheduled.ts on their EventBridge rules and those of functions/streams.ts on the table's change stream,
 * each granted what its entry names. Their queues, the table and the rest they share stay in the root stack.
 */
export class EngineStack extends NestedStack {
  readonly consumers: readonly QueueFunction[];
  readonly scheduled: readonly ScheduledFunction[];
  readonly streams: readonly StreamFunction[];

  constructor(scope: Construct, id: string, props: EngineStackProps) {
    super(scope, id, { description: 'Email lifecycle: the engine (queue, scheduled and stream functions)' });
    const common = {
      shared: props.shared,
      table: props.table,
      environment: props.environment,
      deletionProtection: props.deletionProtection,
    };
    this.consumers = [...addQueueFunctions(this, { ...common, queueFunctions: props.queueFunctions }).values()];
    this.scheduled = scheduledFunctions.map(
      (definition) => new ScheduledFunction(this, constructIdOf(definition.handler), { ...common, definition }),
    );
    this.streams = streamFunctions.map(
      (definition) => new StreamFunction(this, constructIdOf(definition.handler), { ...common, definition }),
    );
  }
}
