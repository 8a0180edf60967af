import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { streamFunctions } from '../../functions/streams.js';
import { queueFunctions, type LogMetric } from '../../functions/queues.js';
import { scheduledFunctions } from '../../functions/scheduled.js';
import { API_5XX_MIN_ERRORS, API_5XX_PERCENT, SES_REPUTATION_THRESHOLDS } from '../../infra/alarms.js';
import { composeApp } from '../../infra/compose-app.js';
import {
  FASTEST_SEND_SECONDS,
  SES_DEFAULT_MAX_SEND_RATE,
  senderCeiling,
  senderSizing,
  sizeQueueFunctions,
} from '../../infra/queue-concurrency.js';
import { MAX_QUEUE_DELAY_SECONDS } from '../../shared/platform.js';
import { appWith, logicalIdOf, synthesize, type Resource, type Statement } from './support/synthesized-stack.js';

const { app, template, resources } = synthesize();

/** The stack deployed with an on-call address (synthesized once, on first use). */
let withAddress: ReturnType<typeof synthesize> | undefined;
const synthesizeWithAddress = () => (withAddress ??= synthesize({ onCallEmail: 'oncall@example.org' }));

type PolicyStatementJson = Statement & { Principal: unknown; Sid?: string };
type Dimension = { Name: string; Value: unknown };

const ofType = (type: string, from = resources): [string, Resource][] =>
  Object.entries(from).filter(([, r]) => r.Type === type);
const alarms = (): Resource[] => ofType('AWS::CloudWatch::Alarm').map(([, r]) => r);
const dimensionsOf = (alarm: Resource): Dimension[] => (alarm.Properties.Dimensions ?? []) as Dimension[];

/** A `Fn::Join` ARN flattened to text, pseudo parameters and references as `<Name>`. */
const arnText = (value: unknown): string => {
  const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (!join) return typeof value === 'string' ? value : `<${logicalIdOf(value)}>`;
  return join[1].map((part) => (typeof part === 'string' ? part : `<${logicalIdOf(part)}>`)).join(join[0]);
};

/** The on-call topic, as the stack outputs it. */
const onCallTopicId = (): string => {
  const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
  return logicalIdOf(outputs['OnCallTopic']!.Value);
};

/** A function of the queue or scheduled table, found by the description infra gives it. */
function functionId(description: string): string {
  const found = ofType('AWS::Lambda::Function').filter(([, r]) => r.Properties.Description === description);
  expect(found).toHaveLength(1);
  return found[0]![0];
}

/** The background functions: every queue consumer and scheduled function, with the log metrics of its entry. */
const BACKGROUND: { handler: string; description: string; logMetrics: readonly LogMetric[] }[] = [
  ...queueFunctions.map((q) => ({
    handler: q.handler,
    description: `${q.queue} queue -> ${q.handler}`,
    logMetrics: q.logMetrics ?? [],
  })),
  ...scheduledFunctions.map((s) => ({
    handler: s.handler,
    description: `every ${s.everyMinutes} min -> ${s.handler}`,
    logMetrics: s.logMetrics ?? [],
  })),
];

/** The queue a consumer reads, followed through its event source mapping. */
function consumedQueueId(queue: string): string {
  const definition = queueFunctions.find((q) => q.queue === queue)!;
  const fnId = functionId(`${queue} queue -> ${definition.handler}`);
  const mapping = ofType('AWS::Lambda::EventSourceMapping').find(
    ([, r]) => logicalIdOf(r.Properties.FunctionName) === fnId,
  )!;
  return logicalIdOf(mapping[1].Properties.EventSourceArn);
}

const mappingOf = (handler: string, from: Record<string, Resource>): Resource => {
  const definition = queueFunctions.find((q) => q.handler === handler)!;
  const fnId = ofType('AWS::Lambda::Function', from).find(
    ([, r]) => r.Properties.Description === `${definition.queue} queue -> ${handler}`,
  )![0];
  return ofType('AWS::Lambda::EventSourceMapping', from).find(
    ([, r]) => logicalIdOf(r.Properties.FunctionName) === fnId,
  )![1];
};

describe('operators hear about failures', () => {
  describe('the on-call topic', () => {
    it('takes publishes over TLS only, and only from CloudWatch alarms of this account and region', () => {
      // Prepare
      const topicId = onCallTopicId();
      const policies = ofType('AWS::SNS::TopicPolicy').filter(([, r]) =>
        (r.Properties.Topics as unknown[]).some((t) => logicalIdOf(t) === topicId),
      );

      // Assess
      expect(resources[topicId]!.Type).toBe('AWS::SNS::Topic');
      expect(policies).toHaveLength(1);
      const statements = (policies[0]![1].Properties.PolicyDocument as { Statement: PolicyStatementJson[] }).Statement;
      for (const statement of statements) expect(statement.Resource).toEqual({ Ref: topicId });
      expect(statements.filter((s) => s.Effect === 'Deny')).toEqual([
        expect.objectContaining({ Action: 'sns:Publish', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      ]);
      const allows = statements.filter((s) => s.Effect === 'Allow');
      expect(allows).toHaveLength(1);
      expect(allows[0]).toMatchObject({ Action: 'sns:Publish', Principal: { Service: 'cloudwatch.amazonaws.com' } });
      expect(allows[0]!.Condition!['StringEquals']).toEqual({ 'aws:SourceAccount': { Ref: 'AWS::AccountId' } });
      expect(arnText(allows[0]!.Condition!['ArnLike']!['aws:SourceArn'])).toBe(
        'arn:<AWS::Partition>:cloudwatch:<AWS::Region>:<AWS::AccountId>:alarm:*',
      );
    });

    it('has no subscriber unless context onCallEmail names one', () => {
      const toTopic = ofType('AWS::SNS::Subscription').filter(
        ([, r]) => logicalIdOf(r.Properties.TopicArn) === onCallTopicId(),
      );
      expect(toTopic).toEqual([]);
    });

    it('subscribes the onCallEmail address to it', () => {
      // Act
      const { template: custom, resources: customResources } = synthesizeWithAddress();

      // Assess
      const topicId = logicalIdOf(
        (custom.toJSON().Outputs as Record<string, { Value: unknown }>)['OnCallTopic']!.Value,
      );
      const subscriptions = ofType('AWS::SNS::Subscription', customResources).filter(
        ([, r]) => r.Properties.Protocol === 'email',
      );
      expect(subscriptions.map(([, r]) => r.Properties)).toEqual([
        { Protocol: 'email', Endpoint: 'oncall@example.org', TopicArn: { Ref: topicId } },
      ]);
    });

    it('refuses an onCallEmail that is not an e-mail address', () => {
      expect(() => composeApp(appWith({ onCallEmail: 'pager' }))).toThrow(/onCallEmail/);
    });
  });

  describe('alarms', () => {
    it('sends every alarm of the stack, on ALARM and on OK, to the on-call topic', () => {
      const topic = { Ref: onCallTopicId() };
      // 12 DLQs (9 queues', the schedules', the webhook and day-counter streams' on-failure queues), 17 background
      // functions (9 queue, 6 scheduled, 2 stream), 9 queue ages, 2 stream ages, the API's 5xx rate, 2 SES rates,
      // 7 log metrics.
      expect(alarms()).toHaveLength(50);
      for (const alarm of alarms()) {
        expect(alarm.Properties.AlarmActions, String(alarm.Properties.AlarmDescription)).toEqual([topic]);
        expect(alarm.Properties.OKActions, String(alarm.Properties.AlarmDescription)).toEqual([topic]);
        expect(alarm.Properties.ActionsEnabled ?? true).toBe(true);
      }
    });

    it('alarms when a stream function reads changes five minutes or more after they happened', () => {
      const ages = alarms().filter((a) => a.Properties.MetricName === 'IteratorAge');
      expect(ages).toHaveLength(streamFunctions.length);
      for (const alarm of ages)
        expect(alarm.Properties).toMatchObject({
          Namespace: 'AWS/Lambda',
          Statistic: 'Maximum',
          Threshold: 300_000,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        });
    });

    it("keeps one alarm at one message on each DLQ: the three queues' and the schedules'", () => {
      const dlqAlarms = alarms().filter((a) => a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible');
      expect(dlqAlarms).toHaveLength(queueFunctions.length + 1 + streamFunctions.length);
      for (const alarm of dlqAlarms) expect(alarm.Properties).toMatchObject({ Threshold: 1, Namespace: 'AWS/SQS' });
    });

    it.each(BACKGROUND.map((b) => [b.handler, b] as const))(
      'alarms on any invocation error of %s',
      (_handler, background) => {
        const fnId = functionId(background.description);
        const errors = alarms().filter(
          (a) =>
            a.Properties.MetricName === 'Errors' &&
            dimensionsOf(a).some((d) => d.Name === 'FunctionName' && logicalIdOf(d.Value) === fnId),
        );
        expect(errors).toHaveLength(1);
        expect(errors[0]!.Properties).toMatchObject({
          Namespace: 'AWS/Lambda',
          Statistic: 'Sum',
          Period: 300,
          Threshold: 1,
          EvaluationPeriods: 1,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
          TreatMissingData: 'notBreaching',
        });
      },
    );

    it.each([
      // 5 receives × 180 s (6 × the 30 s timeout); the workflow queue also carries delays of up to 15 minutes.
      ['events', 0, 900],
      ['workflow', MAX_QUEUE_DELAY_SECONDS, 1800],
      ['ses-status', 0, 900],
    ] as const)(
      "alarms when the %s queue's oldest message outlives its delays (%i s) and retries: %i s",
      (queue, delay, threshold) => {
        // Prepare: the queue's own timing, from the template
        const queueId = consumedQueueId(queue);
        const properties = resources[queueId]!.Properties;
        const receives = (properties.RedrivePolicy as { maxReceiveCount: number }).maxReceiveCount;
        const retries = receives * (properties.VisibilityTimeout as number);

        // Assess
        const ages = alarms().filter(
          (a) =>
            a.Properties.MetricName === 'ApproximateAgeOfOldestMessage' &&
            dimensionsOf(a).some((d) => d.Name === 'QueueName' && logicalIdOf(d.Value) === queueId),
        );
        expect(ages).toHaveLength(1);
        expect(delay + retries).toBe(threshold);
        expect(ages[0]!.Properties).toMatchObject({
          Namespace: 'AWS/SQS',
          Statistic: 'Maximum',
          Period: 300,
          Threshold: threshold,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
          TreatMissingData: 'notBreaching',
        });
      },
    );

    it(`alarms when ${API_5XX_PERCENT} % of the HTTP API's requests in 5 minutes answer 5xx, at least ${API_5XX_MIN_ERRORS} of them`, () => {
      const apiId = ofType('AWS::ApiGatewayV2::Api')[0]![0];
      const rates = alarms().filter((a) => a.Properties.Metrics !== undefined);
      expect(rates).toHaveLength(1);
      expect(rates[0]!.Properties).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
      });
      type Query = {
        Id: string;
        Expression?: string;
        MetricStat?: {
          Metric: { MetricName: string; Namespace: string; Dimensions: Dimension[] };
          Stat: string;
          Period: number;
        };
      };
      const queries = rates[0]!.Properties.Metrics as Query[];
      expect(queries.find((q) => q.Expression)?.Expression).toBe('IF(errors >= 3, 100 * errors / requests, 0)');
      const stats = Object.fromEntries(queries.filter((q) => q.MetricStat).map((q) => [q.Id, q.MetricStat!]));
      expect(Object.keys(stats).sort()).toEqual(['errors', 'requests']);
      expect(stats['errors']!.Metric.MetricName).toBe('5xx');
      expect(stats['requests']!.Metric.MetricName).toBe('Count');
      for (const stat of Object.values(stats)) {
        expect(stat).toMatchObject({ Stat: 'Sum', Period: 300, Metric: { Namespace: 'AWS/ApiGateway' } });
        expect(stat.Metric.Dimensions).toEqual([{ Name: 'ApiId', Value: { Ref: apiId } }]);
      }
    });

    it.each([
      ['Reputation.BounceRate', SES_REPUTATION_THRESHOLDS.bounceRate, 0.05],
      ['Reputation.ComplaintRate', SES_REPUTATION_THRESHOLDS.complaintRate, 0.001],
    ] as const)(
      "alarms when SES's account-wide %s reaches %s, half of SES's review threshold",
      (metricName, threshold, review) => {
        expect(threshold).toBe(review / 2);
        const found = alarms().filter((a) => a.Properties.MetricName === metricName);
        expect(found).toHaveLength(1);
        expect(found[0]!.Properties).toMatchObject({
          Namespace: 'AWS/SES',
          Statistic: 'Maximum',
          Threshold: threshold,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        });
        expect(dimensionsOf(found[0]!)).toEqual([]);
      },
    );

    const LOG_METRICS = BACKGROUND.flatMap((b) => b.logMetrics.map((m) => [m.metric, b, m] as const));

    it('declares the log metrics operators must hear about', () => {
      expect(LOG_METRICS.map(([metric, b]) => `${b.handler}: ${metric}`)).toEqual([
        'ses-status: ses_status_unknown_message',
        'ses-status: system_mail_bounce',
        'ses-status: system_mail_complaint',
        'deliver-webhook-failing: webhook_message_failed',
        'sweep-executions: stuck_executions_swept',
        'sweep-runs: stuck_runs_swept',
        'sweep-broadcasts: stuck_broadcasts_swept',
      ]);
    });

    it.each(LOG_METRICS)(
      'counts %s on the logs of its function and alarms at its threshold',
      (metric, background, definition) => {
        // Prepare: the function's own log group
        const fn = resources[functionId(background.description)]!;
        const logGroupId = logicalIdOf((fn.Properties.LoggingConfig as { LogGroup: unknown }).LogGroup);

        // Assess
        const filters = ofType('AWS::Logs::MetricFilter').filter(
          ([, r]) => r.Properties.FilterPattern === `{ $.metric = "${metric}" }`,
        );
        expect(filters).toHaveLength(1);
        expect(logicalIdOf(filters[0]![1].Properties.LogGroupName)).toBe(logGroupId);
        expect(filters[0]![1].Properties.MetricTransformations).toEqual([
          {
            MetricNamespace: 'EmailLifecycle',
            MetricName: definition.metricName,
            MetricValue: definition.valueField ? `$.${definition.valueField}` : '1',
          },
        ]);
        const found = alarms().filter((a) => a.Properties.MetricName === definition.metricName);
        expect(found).toHaveLength(1);
        expect(found[0]!.Properties).toMatchObject({
          Namespace: 'EmailLifecycle',
          Statistic: 'Sum',
          Period: 300,
          Threshold: definition.alarmAt,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
          TreatMissingData: 'notBreaching',
          AlarmDescription: definition.description,
        });
      },
    );

    it('alarms at the first stuck execution or run (the sum of `enqueued`), and at 10 unknown SES messages in 5 minutes', () => {
      const byMetric = Object.fromEntries(LOG_METRICS.map(([metric, , definition]) => [metric, definition]));
      expect(byMetric['stuck_executions_swept']).toMatchObject({ valueField: 'enqueued', alarmAt: 1 });
      expect(byMetric['stuck_runs_swept']).toMatchObject({
        metricName: 'StuckRunsSwept',
        valueField: 'enqueued',
        alarmAt: 1,
      });
      expect(byMetric['ses_status_unknown_message']).toMatchObject({ alarmAt: 10 });
      expect(byMetric['ses_status_unknown_message']).not.toHaveProperty('valueField');
    });
  });

  describe('the operations dashboard', () => {
    const dashboards = ofType('AWS::CloudWatch::Dashboard');
    const body = JSON.stringify(dashboards[0]?.[1].Properties.DashboardBody);

    it('is one dashboard', () => {
      expect(dashboards).toHaveLength(1);
    });

    it.each([
      ['events in', 'NumberOfMessagesSent'],
      ['e-mails sent', '\\"Send\\"'],
      ['deliveries', '\\"Delivery\\"'],
      ['deferred', 'ApproximateNumberOfMessagesDelayed'],
      ['bounced', '\\"Bounce\\"'],
      ['complained', '\\"Complaint\\"'],
      ['SES reputation', 'Reputation.BounceRate'],
      ['queue ages', 'ApproximateAgeOfOldestMessage'],
      ['dead letters', 'ApproximateNumberOfMessagesVisible'],
      ['function errors', '\\"Errors\\"'],
      ['API 5xx', '\\"5xx\\"'],
      ['invocations', '\\"Invocations\\"'],
      ['stuck executions', 'StuckExecutionsSwept'],
      ['stuck journey runs', 'StuckRunsSwept'],
      ['unknown SES messages', 'SesStatusUnknownMessages'],
      ["every alarm's state", '\\"alarms\\"'],
    ])('shows %s (%s)', (_what, needle) => {
      expect(body).toContain(needle);
    });
  });

  it('leaves no cdk-nag AwsSolutions finding unacknowledged, with an on-call address too', () => {
    for (const scope of [app, synthesizeWithAddress().app]) {
      const report = new AwsSolutionsChecks().validateScope(scope);
      expect(report.violations.map((v) => `${v.ruleName} at ${v.violatingResources[0]?.constructPath}`)).toEqual([]);
    }
  });
});

describe('bounded concurrency', () => {
  it('bounds the mapping of every queue consumer: a maximum concurrency from 2 to 1000', () => {
    // The stream mappings (functions/streams.ts) have no maximum concurrency: one batch per shard at a time.
    const mappings = ofType('AWS::Lambda::EventSourceMapping').filter(
      ([, m]) => m.Properties.StartingPosition === undefined,
    );
    expect(mappings).toHaveLength(queueFunctions.length);
    for (const [, mapping] of mappings) {
      const maximum = (mapping.Properties.ScalingConfig as { MaximumConcurrency?: number } | undefined)
        ?.MaximumConcurrency;
      expect(maximum).toBeGreaterThanOrEqual(2);
      expect(maximum).toBeLessThanOrEqual(1000);
    }
  });

  it.each([
    ['process-events', 10, 3],
    ['ses-status', 10, 6],
    // SES's default 14 e-mails/s: 2 sends in flight, one a batch, ≤ 13.3 e-mails/s at 0.15 s a send.
    ['execute-workflow', 1, 2],
  ] as const)(
    'maps %s in batches of %i, at most %i invocations at once by default',
    (handler, batchSize, maxConcurrency) => {
      expect(mappingOf(handler, resources).Properties).toMatchObject({
        BatchSize: batchSize,
        ScalingConfig: { MaximumConcurrency: maxConcurrency },
      });
    },
  );

  it("keeps the sender under SES's default rate", () => {
    expect(SES_DEFAULT_MAX_SEND_RATE).toBe(14);
    const sizing = senderSizing(SES_DEFAULT_MAX_SEND_RATE, 10);
    expect(senderCeiling(sizing)).toBeCloseTo(13.33, 2);
    expect(senderCeiling(sizing)).toBeLessThanOrEqual(SES_DEFAULT_MAX_SEND_RATE);
  });

  it.each([
    // rate (e-mails/s), batch, concurrency: the most sends in flight within rate × FASTEST_SEND_SECONDS, fuller batches first
    [1, 1, 2],
    [8, 1, 2],
    [14, 1, 2],
    [28, 2, 2],
    [50, 1, 7],
    [200, 10, 3],
    [1000, 10, 15],
    [100_000, 10, 1000],
  ] as const)('sizes a sender for %s e-mails/s as batches of %i, %i at once', (rate, batchSize, maxConcurrency) => {
    const sizing = senderSizing(rate, 10);
    expect(sizing).toEqual({ batchSize, maxConcurrency });
    // Within the rate whenever two invocations of one message fit in it (13.3/s); below, SES's throttling paces the rest.
    if (rate >= 2 / FASTEST_SEND_SECONDS && maxConcurrency < 1000)
      expect(senderCeiling(sizing)).toBeLessThanOrEqual(rate);
  });

  it('takes sesMaxSendRate and <handler>MaxConcurrency from CDK context', () => {
    // Act
    const { resources: custom } = synthesize({
      sesMaxSendRate: '200',
      processEventsMaxConcurrency: '8',
      sesStatusMaxConcurrency: 20,
    });

    // Assess
    // 200 e-mails/s × 0.15 s = 30 sends in flight: 10 × 3.
    expect(mappingOf('execute-workflow', custom).Properties).toMatchObject({
      BatchSize: 10,
      ScalingConfig: { MaximumConcurrency: 3 },
    });
    expect(mappingOf('process-events', custom).Properties).toMatchObject({ ScalingConfig: { MaximumConcurrency: 8 } });
    expect(mappingOf('ses-status', custom).Properties).toMatchObject({ ScalingConfig: { MaximumConcurrency: 20 } });
  });

  it.each([
    ['sesMaxSendRate', '0'],
    ['sesMaxSendRate', 'fast'],
    ['processEventsMaxConcurrency', '1'],
    ['processEventsMaxConcurrency', '1001'],
    ['sesStatusMaxConcurrency', '2.5'],
    // The sender follows the SES rate, never a concurrency of its own.
    ['executeWorkflowMaxConcurrency', '10'],
  ])('refuses context %s = %s', (key, value) => {
    expect(() => composeApp(appWith({ [key]: value }))).toThrow(key);
  });

  it('refuses a queue entry left unbounded, and a sender given a concurrency of its own', () => {
    const settings = { sesMaxSendRate: SES_DEFAULT_MAX_SEND_RATE, maxConcurrency: {} };
    expect(() =>
      sizeQueueFunctions([{ handler: 'process-events', queue: 'events', tableAccess: 'read' }], settings),
    ).toThrow(/process-events has no maxConcurrency/);
    expect(() =>
      sizeQueueFunctions(
        [
          {
            handler: 'execute-workflow',
            queue: 'workflow',
            tableAccess: 'readWrite',
            sendsEmail: true,
            maxConcurrency: 5,
          },
        ],
        settings,
      ),
    ).toThrow(/sesMaxSendRate/);
  });
});
