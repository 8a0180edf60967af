import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  ComparisonOperator,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
  type Alarm,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import type { QueueName } from '../shared/platform.js';
import type { SharedResources } from './shared-resources.js';
import type { CountedLogMetric } from './log-metrics.js';
import { constructIdOf } from './node-function.js';
import type { QueueFunction } from './queue-function.js';
import type { ScheduledFunction } from './scheduled-function.js';
import type { StreamFunction } from './stream-function.js';

/** Every alarm but SES's reputation reads 5-minute periods and fires on the first breaching one. */
const PERIOD = Duration.minutes(5);

/**
 * Half of the rates at which SES puts an account under review (bounces 5 %, complaints 0.1 %): time to act before
 * SES does. SES publishes them as fractions.
 */
export const SES_REPUTATION_THRESHOLDS = { bounceRate: 0.025, complaintRate: 0.0005 } as const;

/** The HTTP API alarms when at least this share of its requests (%) answer 5xx over a period… */
export const API_5XX_PERCENT = 1;
/** …and at least this many did, so one failed request in a quiet period does not page. */
export const API_5XX_MIN_ERRORS = 3;

export interface ServiceAlarmsProps {
  api: HttpApi;
  shared: SharedResources;
  /** The consumer of each queue of functions/queues.ts. */
  consumers: readonly QueueFunction[];
  /** The functions of functions/scheduled.ts (the sweepers). */
  scheduled: readonly ScheduledFunction[];
  /** The functions of functions/streams.ts (webhook facts). */
  streams?: readonly StreamFunction[];
}

/**
 * The service's alarms besides each DLQ's own (infra/dead-letter-queue.ts): `Errors` of every background
 * function, the HTTP API's 5xx rate, the age of each consumed queue's oldest message and of each stream function's
 * reading, SES's bounce and complaint
 * rates, and each log metric of the function tables. Their actions are the on-call topic's (infra/on-call.ts);
 * docs/decisions/0071-operators-hear-about-failures.md "Operators hear about failures" says why each threshold.
 */
/** A stream function normally reads a change within seconds (its batching window); five minutes means it is behind. */
export const STREAM_AGE_ALARM_SECONDS = 300;

export class ServiceAlarms extends Construct {
  readonly functionErrors = new Map<string, Alarm>();
  readonly queueAge = new Map<QueueName, Alarm>();
  /** By stream function: how far its reading lags the table's changes. */
  readonly streamAge = new Map<string, Alarm>();
  readonly logMetrics = new Map<string, Alarm>();
  readonly api5xxRate: Alarm;
  readonly bounceRate: Alarm;
  readonly complaintRate: Alarm;

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    const background = [
      ...props.consumers.map((c) => ({ handler: c.definition.handler, fn: c.function, logMetrics: c.logMetrics })),
      ...props.scheduled.map((s) => ({ handler: s.definition.handler, fn: s.function, logMetrics: s.logMetrics })),
      ...(props.streams ?? []).map((s) => ({
        handler: s.definition.handler,
        fn: s.function,
        logMetrics: s.logMetrics,
      })),
    ];
    for (const { handler, fn, logMetrics } of background) {
      this.functionErrors.set(handler, this.errorsOf(handler, fn));
      for (const counted of logMetrics)
        this.logMetrics.set(counted.definition.metricName, this.logMetricAlarm(counted));
    }
    for (const stream of props.streams ?? [])
      this.streamAge.set(stream.definition.handler, this.streamAgeOf(stream.definition.handler, stream.function));
    for (const consumer of props.consumers) {
      const queue = consumer.source;
      this.queueAge.set(queue.name, this.queueAgeOf(queue.name, props.shared));
    }
    this.api5xxRate = this.api5xxRateOf(props.api);
    this.bounceRate = this.reputationAlarm(
      'SesBounceRate',
      'Reputation.BounceRate',
      SES_REPUTATION_THRESHOLDS.bounceRate,
      'SES account bounce rate reached 2.5 % (SES reviews the account at 5 %, may pause sending at 10 %)',
    );
    this.complaintRate = this.reputationAlarm(
      'SesComplaintRate',
      'Reputation.ComplaintRate',
      SES_REPUTATION_THRESHOLDS.complaintRate,
      'SES account complaint rate reached 0.05 % (SES reviews the account at 0.1 %, may pause sending at 0.5 %)',
    );
  }

  /**
   * A queue's oldest message is older than the longest it can wait when all is well: its longest delivery delay plus
   * the retry window to the DLQ (WorkQueue.retryWindowSeconds). Older means it waits behind a backlog, not a retry.
   */
  static queueAgeThresholdSeconds(shared: SharedResources, name: QueueName): number {
    return shared.maxDelaySecondsOf(name) + shared.queueOf(name).retryWindowSeconds;
  }

  /** Any invocation error (a crash, a timeout, an init failure): message failures are partial batch responses. */
  private errorsOf(handler: string, fn: NodejsFunction): Alarm {
    return fn
      .metricErrors({ period: PERIOD, statistic: Stats.SUM })
      .createAlarm(this, `${constructIdOf(handler)}Errors`, {
        alarmDescription: `${handler} failed an invocation (Lambda Errors ≥ 1 in 5 minutes: crash, timeout or init error)`,
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
  }

  private logMetricAlarm({ definition, metric }: CountedLogMetric): Alarm {
    return metric.createAlarm(this, definition.metricName, {
      alarmDescription: definition.description,
      threshold: definition.alarmAt,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }

  /**
   * A stream function's newest batch held a change older than STREAM_AGE_ALARM_SECONDS when it was read: the function
   * is behind (failing batches retried, throttled). Its projections (webhooks, day counters) lag by as much, and the
   * stream keeps a change 24 hours.
   */
  private streamAgeOf(handler: string, fn: NodejsFunction): Alarm {
    return fn
      .metric('IteratorAge', { period: PERIOD, statistic: Stats.MAXIMUM })
      .createAlarm(this, `${constructIdOf(handler)}StreamAge`, {
        alarmDescription:
          `${handler} reads table changes ${STREAM_AGE_ALARM_SECONDS / 60} minutes or more after they happened ` +
          '(Lambda IteratorAge): it is behind, and what it projects (webhooks, day counters) lags by as much',
        threshold: STREAM_AGE_ALARM_SECONDS * 1000,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
  }

  private queueAgeOf(name: QueueName, shared: SharedResources): Alarm {
    const threshold = ServiceAlarms.queueAgeThresholdSeconds(shared, name);
    return shared
      .queueOf(name)
      .queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: Stats.MAXIMUM })
      .createAlarm(this, `${constructIdOf(name)}QueueAge`, {
        alarmDescription:
          `The ${name} queue's oldest message is ${threshold / 60} minutes old, longer than its delays and retries ` +
          'take: its consumer is behind (concurrency cap, throttling or failures)',
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
  }

  private api5xxRateOf(api: HttpApi): Alarm {
    const rate = new MathExpression({
      expression: `IF(errors >= ${API_5XX_MIN_ERRORS}, 100 * errors / requests, 0)`,
      usingMetrics: {
        errors: api.metricServerError({ period: PERIOD, statistic: Stats.SUM }),
        requests: api.metricCount({ period: PERIOD, statistic: Stats.SUM }),
      },
      period: PERIOD,
      label: 'HTTP API 5xx, % of requests',
    });
    return rate.createAlarm(this, 'Api5xxRate', {
      alarmDescription:
        `${API_5XX_PERCENT} % or more of the HTTP API's requests answered 5xx in 5 minutes (at least ` +
        `${API_5XX_MIN_ERRORS}): a handler failing or Lambda throttled`,
      threshold: API_5XX_PERCENT,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }

  /**
   * SES's account-wide reputation rates (the configuration set also publishes them with `reputationMetrics`; SES
   * reviews the account's). SES updates them less often than every period: a missing point keeps the state.
   */
  private reputationAlarm(id: string, metricName: string, threshold: number, description: string): Alarm {
    return reputationMetric(metricName).createAlarm(this, id, {
      alarmDescription: description,
      threshold,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.IGNORE,
    });
  }
}

/** An SES account reputation metric (`Reputation.BounceRate`, `Reputation.ComplaintRate`): a fraction, 0.05 = 5 %. */
export function reputationMetric(metricName: string): Metric {
  return new Metric({ namespace: 'AWS/SES', metricName, statistic: Stats.MAXIMUM, period: Duration.minutes(15) });
}
