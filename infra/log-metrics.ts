import { Duration } from 'aws-cdk-lib';
import { Stats, type Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { FilterPattern, MetricFilter, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { LogMetric } from '../functions/queues.js';
import { constructIdOf } from './node-function.js';

/** The namespace of the service's own CloudWatch metrics. */
export const METRIC_NAMESPACE = 'EmailLifecycle';

/** A log metric of a table entry, counted: its 5-minute sum is what its alarm and the dashboard read. */
export interface CountedLogMetric {
  definition: LogMetric;
  metric: Metric;
}

/**
 * One metric filter per `logMetrics` entry of a function's table entry, on the function's own log group: a JSON log
 * line whose `metric` field names it adds 1, or the value of its `valueField`. Nothing is published while no such line
 * is written, so a quiet metric has no data (its alarm treats that as OK).
 */
export function countLogMetrics(
  scope: Construct,
  logGroup: ILogGroup,
  metrics: readonly LogMetric[] = [],
): CountedLogMetric[] {
  return metrics.map((definition) => {
    const filter = new MetricFilter(scope, constructIdOf(definition.metricName), {
      logGroup,
      metricNamespace: METRIC_NAMESPACE,
      metricName: definition.metricName,
      filterPattern: FilterPattern.stringValue('$.metric', '=', definition.metric),
      metricValue: definition.valueField ? `$.${definition.valueField}` : '1',
    });
    return { definition, metric: filter.metric({ statistic: Stats.SUM, period: Duration.minutes(5) }) };
  });
}
