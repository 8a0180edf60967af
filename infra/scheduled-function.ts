import { Duration } from 'aws-cdk-lib';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import type { ScheduledFunctionDefinition } from '../functions/scheduled.js';
import type { SharedResources } from './shared-resources.js';
import { countLogMetrics, type CountedLogMetric } from './log-metrics.js';
import { createNodeFunction, entryOf, grantTableAccess } from './node-function.js';

export interface ScheduledFunctionProps {
  definition: ScheduledFunctionDefinition;
  shared: SharedResources;
  table: TableV2;
  /** Environment shared by every function (TABLE_NAME, …). */
  environment: Record<string, string>;
  deletionProtection: boolean;
}

/**
 * One entry of functions/scheduled.ts: its Lambda (table access and sends as the entry says), an EventBridge rule
 * that invokes it every `everyMinutes` (the local runtime runs the same handler on an interval), and a metric filter
 * per log metric of its entry.
 */
export class ScheduledFunction extends Construct {
  readonly function: NodejsFunction;
  readonly definition: ScheduledFunctionDefinition;
  readonly logMetrics: readonly CountedLogMetric[];

  constructor(scope: Construct, id: string, props: ScheduledFunctionProps) {
    super(scope, id);
    const { definition } = props;
    this.definition = definition;
    this.function = createNodeFunction(this, {
      entry: entryOf('scheduled', definition.handler),
      description: `every ${definition.everyMinutes} min -> ${definition.handler}`,
      timeoutSeconds: definition.timeoutSeconds ?? 60,
      memoryMb: 512,
      environment: props.environment,
      deletionProtection: props.deletionProtection,
    });
    grantTableAccess(this.function, props.table, definition.tableAccess);
    props.shared.connect(this.function, definition.handler, definition);

    new Rule(this, 'Schedule', {
      description: `Runs ${definition.handler} every ${definition.everyMinutes} minutes`,
      schedule: Schedule.rate(Duration.minutes(definition.everyMinutes)),
      // A run missed for longer than one period is worth nothing: the next one does the same work.
      targets: [
        new LambdaFunction(this.function, { maxEventAge: Duration.minutes(definition.everyMinutes), retryAttempts: 2 }),
      ],
    });
    // e.g. sweep-executions's stuck claims: each one a worker that died with its re-dispatch lost.
    this.logMetrics = countLogMetrics(this, this.function.logGroup, definition.logMetrics);
  }
}
