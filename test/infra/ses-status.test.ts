import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { VISIBILITY_TIMEOUT_FACTOR, queueFunctions, type QueueFunctionDefinition } from '../../functions/queues.js';
import { routeKey, routes } from '../../functions/routes.js';
import { SharedResources } from '../../infra/shared-resources.js';
import { queueUrlVariable } from '../../infra/work-queue.js';
import {
  allowing,
  appWith,
  asList,
  logicalIdOf,
  statementsOfRole,
  synthesize,
  type Resource,
  type Statement,
} from './support/synthesized-stack.js';

const { app, resources } = synthesize();

type PolicyStatementJson = Statement & { Principal: unknown; Sid?: string };

const STATUS_ENTRY = queueFunctions.find((q) => q.sesEvents)!;

/** The one resource of a type, with its logical id. */
function only(type: string): { id: string; resource: Resource } {
  const found = Object.entries(resources).filter(([, r]) => r.Type === type);
  expect(found).toHaveLength(1);
  const [id, resource] = found[0]!;
  return { id, resource };
}

const statementsOf = (document: unknown): PolicyStatementJson[] =>
  (document as { Statement: PolicyStatementJson[] }).Statement;

/** The configuration sets: clients' mail, and the service's own (sign-in links, invitations, notices). */
function configurationSets(): { clients: string; system: string } {
  const ids = Object.entries(resources)
    .filter(([, r]) => r.Type === 'AWS::SES::ConfigurationSet')
    .map(([id]) => id);
  expect(ids).toHaveLength(2);
  const system = ids.filter((id) => /SystemConfigurationSet/.test(id));
  expect(system).toHaveLength(1);
  return { clients: ids.find((id) => id !== system[0])!, system: system[0]! };
}

/** The event destination of a configuration set (one each). */
function destinationOf(setId: string): Resource {
  const found = Object.values(resources).filter(
    (r) =>
      r.Type === 'AWS::SES::ConfigurationSetEventDestination' &&
      logicalIdOf(r.Properties.ConfigurationSetName) === setId,
  );
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** The topic SES publishes to: the one the clients' configuration set's event destination names (the stack has others). */
function statusTopic(): { id: string; resource: Resource } {
  const destination = destinationOf(configurationSets().clients).Properties.EventDestination as {
    SnsDestination: { TopicARN: unknown };
  };
  const id = logicalIdOf(destination.SnsDestination.TopicARN);
  expect(resources[id]!.Type).toBe('AWS::SNS::Topic');
  return { id, resource: resources[id]! };
}

/** The one topic policy attached to a topic. */
function topicPolicyOf(topicId: string): Resource {
  const policies = Object.values(resources).filter(
    (r) =>
      r.Type === 'AWS::SNS::TopicPolicy' && (r.Properties.Topics as unknown[]).some((t) => logicalIdOf(t) === topicId),
  );
  expect(policies).toHaveLength(1);
  return policies[0]!;
}

/** The statements of the SQS queue policy attached to a queue. */
function queuePolicyOf(queueId: string): PolicyStatementJson[] {
  const policies = Object.values(resources).filter(
    (r) =>
      r.Type === 'AWS::SQS::QueuePolicy' && (r.Properties.Queues as unknown[]).some((q) => logicalIdOf(q) === queueId),
  );
  expect(policies).toHaveLength(1);
  return statementsOf(policies[0]!.Properties.PolicyDocument);
}

/** The status queue, its consumer and its DLQ, followed from the consumer's event source mapping. */
function statusPath() {
  const fnEntry = Object.entries(resources).find(
    ([, r]) =>
      r.Type === 'AWS::Lambda::Function' &&
      r.Properties.Description === `${STATUS_ENTRY.queue} queue -> ${STATUS_ENTRY.handler}`,
  )!;
  const [functionId, fn] = fnEntry;
  const mappings = Object.values(resources).filter(
    (r) => r.Type === 'AWS::Lambda::EventSourceMapping' && logicalIdOf(r.Properties.FunctionName) === functionId,
  );
  expect(mappings).toHaveLength(1);
  const queueId = logicalIdOf(mappings[0]!.Properties.EventSourceArn);
  const queue = resources[queueId]!;
  const dlqId = logicalIdOf((queue.Properties.RedrivePolicy as { deadLetterTargetArn: unknown }).deadLetterTargetArn);
  return { functionId, fn, mapping: mappings[0]!, queueId, queue, dlqId };
}

/** `arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:configuration-set/<ConfigurationSetId>` as text. */
const arnText = (value: unknown): string => {
  const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (!join) throw new Error(`not an ARN join: ${JSON.stringify(value)}`);
  return join[1].map((part) => (typeof part === 'string' ? part : `<${logicalIdOf(part)}>`)).join(join[0]);
};

const configurationSetArn = (id = configurationSets().clients): string =>
  `arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:configuration-set/<${id}>`;

/** Each client's own set, made at run time: `<prefix>client-*` (the root stack's name, lower-case). */
const CLIENT_SETS_ARN =
  'arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:configuration-set/emaillifecycle-client-*';

const ALL_SES_EVENT_TYPES = [
  'bounce',
  'click',
  'complaint',
  'delivery',
  'deliveryDelay',
  'open',
  'reject',
  'renderingFailure',
  'send',
  'subscription',
];

describe('SES status events on AWS', () => {
  it('has one queue entry that receives SES events: ses-status, reading and writing the table, sending only to the workflow queue', () => {
    expect(queueFunctions.filter((q) => q.sesEvents)).toEqual([
      // The workflow queue: a notification that is a stranded execution's evidence wakes it.
      {
        handler: 'ses-status',
        queue: 'ses-status',
        tableAccess: 'readWrite',
        sesEvents: true,
        sendsTo: ['workflow'],
        maxConcurrency: 6,
        logMetrics: [
          expect.objectContaining({ metric: 'ses_status_unknown_message', metricName: 'SesStatusUnknownMessages' }),
          expect.objectContaining({ metric: 'system_mail_bounce', metricName: 'SystemMailBounces' }),
          expect.objectContaining({ metric: 'system_mail_complaint', metricName: 'SystemMailComplaints', alarmAt: 1 }),
        ],
      },
    ]);
  });

  it.each(['clients', 'system'] as const)(
    'publishes all 10 SES event types of the %s configuration set to the one SNS topic, and nowhere else',
    (set) => {
      const topicId = statusTopic().id;
      const resource = destinationOf(configurationSets()[set]);
      const destination = resource.Properties.EventDestination as Record<string, unknown> & {
        MatchingEventTypes: string[];
      };
      expect(Object.keys(destination).sort()).toEqual(['Enabled', 'MatchingEventTypes', 'SnsDestination']);
      expect(destination.Enabled).toBe(true);
      expect([...destination.MatchingEventTypes].sort()).toEqual(ALL_SES_EVENT_TYPES);
      expect(destination.SnsDestination).toEqual({ TopicARN: { Ref: topicId } });
      expect(
        Object.values(resources).filter((r) => r.Type === 'AWS::SES::ConfigurationSetEventDestination'),
      ).toHaveLength(2);
    },
  );

  it('gives the service’s own mail a configuration set of its own, suppressing bounces and complaints, named to its senders only', () => {
    const { clients, system } = configurationSets();
    expect(resources[system]!.Properties).toMatchObject({
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
      ReputationOptions: { ReputationMetricsEnabled: true },
    });
    const named = (variable: string) =>
      Object.values(resources).filter(
        (r) =>
          r.Type === 'AWS::Lambda::Function' &&
          variable in ((r.Properties.Environment as { Variables?: Record<string, unknown> }).Variables ?? {}),
      );
    const systemSenders = named('SES_SYSTEM_CONFIGURATION_SET');
    expect(systemSenders.map((r) => r.Properties.Description).sort()).toEqual(
      expect.arrayContaining(['system-mail queue -> send-system-mail', 'webhooks queue -> deliver-webhook']),
    );
    for (const sender of systemSenders) {
      const env = (sender.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(env['SES_SYSTEM_CONFIGURATION_SET']).toEqual({ Ref: system });
      // Clients' mail goes through the other set, sent by other functions (test/infra/mail-senders.test.ts).
      expect(env).not.toHaveProperty('SES_CONFIGURATION_SET');
    }
    const clientSenders = named('SES_CONFIGURATION_SET');
    expect(clientSenders.map((r) => r.Properties.Description)).toContain('workflow queue -> execute-workflow');
    for (const sender of clientSenders) {
      const env = (sender.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(env['SES_CONFIGURATION_SET']).toEqual({ Ref: clients });
      expect(env).not.toHaveProperty('SES_SYSTEM_CONFIGURATION_SET');
    }
  });

  it('encrypts the topic with its own rotating key, which SES may use only for this account and configuration set', () => {
    const topic = statusTopic().resource;
    const { id: keyId, resource: key } = only('AWS::KMS::Key');
    expect(topic.Properties.KmsMasterKeyId).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
    expect(key.Properties.EnableKeyRotation).toBe(true);

    const statements = statementsOf(key.Properties.KeyPolicy);
    // CDK's default: the account administers the key through IAM; the other is SES's.
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatchObject({
      Effect: 'Allow',
      Action: 'kms:*',
      Principal: { AWS: expect.anything() as unknown },
    });
    expect(arnText((statements[0]!.Principal as { AWS: unknown }).AWS)).toBe(
      'arn:<AWS::Partition>:iam::<AWS::AccountId>:root',
    );
    const ses = statements[1]!;
    expect(ses).toMatchObject({ Effect: 'Allow', Principal: { Service: 'ses.amazonaws.com' }, Resource: '*' });
    expect(asList(ses.Action).sort()).toEqual(['kms:Decrypt', 'kms:GenerateDataKey*']);
    expect(ses.Condition!['StringEquals']).toEqual({ 'aws:SourceAccount': { Ref: 'AWS::AccountId' } });
    expect(Object.keys(ses.Condition!['ArnLike']!)).toEqual(['aws:SourceArn']);
    const { clients, system } = configurationSets();
    expect((ses.Condition!['ArnLike']!['aws:SourceArn'] as unknown[]).map(arnText)).toEqual([
      configurationSetArn(clients),
      configurationSetArn(system),
      CLIENT_SETS_ARN,
    ]);
  });

  it('lets only SES publish to the topic, for this account and configuration set, and only over TLS', () => {
    const topicId = statusTopic().id;
    const policy = topicPolicyOf(topicId);
    expect(policy.Properties.Topics).toEqual([{ Ref: topicId }]);
    const statements = statementsOf(policy.Properties.PolicyDocument);
    for (const statement of statements) expect(statement.Resource).toEqual({ Ref: topicId });

    const denies = statements.filter((s) => s.Effect === 'Deny');
    expect(denies.map((s) => s.Condition)).toEqual([
      { Bool: { 'aws:SecureTransport': 'false' } },
      { Bool: { 'aws:PrincipalIsAWSService': 'false' } },
    ]);
    for (const deny of denies) expect(deny.Action).toBe('sns:Publish');

    // One Allow per set of the stack (SES, for this account and that set), one for the clients' own sets by name.
    const allows = statements.filter((s) => s.Effect === 'Allow');
    expect(allows).toHaveLength(3);
    const [clientSets, ...stackSets] = allows;
    expect(clientSets).toMatchObject({
      Sid: 'SesPublishesClientSetsEvents',
      Action: 'sns:Publish',
      Principal: { Service: 'ses.amazonaws.com' },
    });
    expect(clientSets!.Condition!['StringEquals']).toEqual({ 'aws:SourceAccount': { Ref: 'AWS::AccountId' } });
    expect(Object.keys(clientSets!.Condition!)).toEqual(['StringEquals', 'ArnLike']);
    expect(arnText(clientSets!.Condition!['ArnLike']!['aws:SourceArn'])).toBe(CLIENT_SETS_ARN);
    const { clients, system } = configurationSets();
    expect(
      stackSets.map((allow) => {
        expect(allow).toMatchObject({ Action: 'sns:Publish', Principal: { Service: 'ses.amazonaws.com' } });
        const conditions = allow.Condition!['StringEquals']!;
        expect(Object.keys(conditions).sort()).toEqual(['AWS:SourceAccount', 'AWS:SourceArn']);
        expect(conditions['AWS:SourceAccount']).toEqual({ Ref: 'AWS::AccountId' });
        return arnText(conditions['AWS:SourceArn']);
      }),
    ).toEqual([configurationSetArn(clients), configurationSetArn(system)]);
  });

  it('subscribes the ses-status queue to the topic without raw delivery (the SNS envelope carries the MessageId)', () => {
    const { queueId, dlqId } = statusPath();
    const topicId = statusTopic().id;
    const { resource: subscription } = only('AWS::SNS::Subscription');
    expect(subscription.Properties).toEqual({
      Protocol: 'sqs',
      TopicArn: { Ref: topicId },
      Endpoint: { 'Fn::GetAtt': [queueId, 'Arn'] },
      RawMessageDelivery: false,
      // What SNS cannot deliver joins the notifications the consumer gave up on.
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] } },
    });
    // SNS may send to the queue and its DLQ on behalf of this topic only; the queues stay SSE-SQS (no key to share).
    for (const id of [queueId, dlqId]) {
      const allows = queuePolicyOf(id).filter((s) => s.Effect === 'Allow');
      expect(allows).toEqual([
        expect.objectContaining({
          Action: 'sqs:SendMessage',
          Principal: { Service: 'sns.amazonaws.com' },
          Condition: { ArnEquals: { 'aws:SourceArn': { Ref: topicId } } },
        }),
      ]);
      expect(resources[id]!.Properties).toMatchObject({ SqsManagedSseEnabled: true });
      expect(resources[id]!.Properties).not.toHaveProperty('KmsMasterKeyId');
    }
  });

  it('moves a notification to the DLQ after 5 receives, hides it 6× the consumer timeout, alarms at one message', () => {
    const { queue, fn, dlqId } = statusPath();
    expect((queue.Properties.RedrivePolicy as { maxReceiveCount: number }).maxReceiveCount).toBe(5);
    expect(queue.Properties.VisibilityTimeout).toBe((fn.Properties.Timeout as number) * VISIBILITY_TIMEOUT_FACTOR);
    expect(resources[dlqId]!.Properties).toMatchObject({ MessageRetentionPeriod: 14 * 24 * 3600 });
    const alarms = Object.values(resources).filter(
      (r) =>
        r.Type === 'AWS::CloudWatch::Alarm' &&
        ((r.Properties.Dimensions ?? []) as { Name: string; Value: unknown }[]).some(
          (d) => d.Name === 'QueueName' && logicalIdOf(d.Value) === dlqId,
        ),
    );
    expect(alarms).toHaveLength(1);
    expect(alarms[0]!.Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('maps the queue to ses-status with ReportBatchItemFailures', () => {
    const { mapping } = statusPath();
    expect(mapping.Properties).toMatchObject({ FunctionResponseTypes: ['ReportBatchItemFailures'], BatchSize: 10 });
  });

  it('counts unknown message ids, and the service’s own mail’s bounces and complaints, with metric filters on the ses-status logs', () => {
    const { fn } = statusPath();
    const logGroupId = logicalIdOf((fn.Properties.LoggingConfig as { LogGroup: unknown }).LogGroup);
    const filters = Object.values(resources).filter(
      (r) => r.Type === 'AWS::Logs::MetricFilter' && logicalIdOf(r.Properties.LogGroupName) === logGroupId,
    );
    expect(filters.map((f) => [f.Properties['FilterPattern'], f.Properties['MetricTransformations']])).toEqual([
      [
        '{ $.metric = "ses_status_unknown_message" }',
        [{ MetricNamespace: 'EmailLifecycle', MetricName: 'SesStatusUnknownMessages', MetricValue: '1' }],
      ],
      [
        '{ $.metric = "system_mail_bounce" }',
        [{ MetricNamespace: 'EmailLifecycle', MetricName: 'SystemMailBounces', MetricValue: '1' }],
      ],
      [
        '{ $.metric = "system_mail_complaint" }',
        [{ MetricNamespace: 'EmailLifecycle', MetricName: 'SystemMailComplaints', MetricValue: '1' }],
      ],
    ]);
  });

  it('lets ses-status read and write the table and send to the workflow queue only: no SES, SNS, KMS or other queue', () => {
    const { fn } = statusPath();
    const statements = statementsOfRole(resources, logicalIdOf(fn.Properties.Role));
    const actions = statements.flatMap((s) => asList(s.Action));
    expect(actions).toEqual(
      expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem']),
    );
    const sends = allowing(statements, 'sqs:SendMessage');
    expect(sends).toHaveLength(1);
    expect(JSON.stringify(sends[0]!.Resource)).toMatch(/Workflow/i);
    expect(actions.filter((a) => /^(ses|sns|kms|scheduler|iam):/.test(a))).toEqual([]);
    const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    // SES_MAX_SEND_RATE is a number (the broadcast pace the engine functions share), not an SES identity or grant.
    expect(
      Object.keys(env).filter((name) => /_QUEUE_(URL|ARN)$|^SES_(?!MAX_SEND_RATE$)|^LINK_SECRET(_ARN)?$/.test(name)),
    ).toEqual(['WORKFLOW_QUEUE_URL']);
  });

  describe('local-only routes', () => {
    const localOnly = routes.filter((route) => route.localOnly);

    it('exist in the route table (POST /api/v1/dev/ses-events)', () => {
      expect(localOnly.map(routeKey)).toContain('POST /api/v1/dev/ses-events');
    });

    it.each(localOnly.map((route) => [routeKey(route)] as const))('builds no API route and no Lambda for %s', (key) => {
      const apiRoutes = Object.values(resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route');
      expect(apiRoutes.length).toBeGreaterThan(0);
      expect(apiRoutes.map((r) => r.Properties.RouteKey)).not.toContain(key);
      const descriptions = Object.values(resources)
        .filter((r) => r.Type === 'AWS::Lambda::Function')
        .map((r) => r.Properties.Description);
      expect(descriptions).not.toContain(key);
    });

    it('leaves the ses-status queue to SNS alone: no function on AWS may send to it', () => {
      const { queueId } = statusPath();
      const senders = Object.values(resources)
        .filter((r) => r.Type === 'AWS::IAM::Policy')
        .flatMap((r) => statementsOf(r.Properties.PolicyDocument))
        .filter((s) => asList(s.Action).includes('sqs:SendMessage'))
        .filter((s) => asList(s.Resource).some((resource) => JSON.stringify(resource).includes(`"${queueId}"`)));
      expect(senders).toEqual([]);
      const withUrl = Object.values(resources).filter(
        (r) =>
          r.Type === 'AWS::Lambda::Function' &&
          queueUrlVariable('ses-status') in
            ((r.Properties.Environment as { Variables: Record<string, unknown> }).Variables ?? {}),
      );
      expect(withUrl).toEqual([]);
    });
  });

  describe('the engine alone', () => {
    const engineWith = (table: QueueFunctionDefinition[]) => {
      const stack = new Stack(appWith(), 'EngineOnly');
      new SharedResources(stack, 'Engine', { queueFunctions: table, deletionProtection: false, senderEnvironment: {} });
      return Template.fromStack(stack);
    };

    it('builds no topic, key or event destination when no queue entry has sesEvents', () => {
      const template = engineWith([{ handler: 'process-events', queue: 'events', tableAccess: 'readWrite' }]);
      for (const type of ['AWS::SNS::Topic', 'AWS::KMS::Key', 'AWS::SES::ConfigurationSetEventDestination']) {
        template.resourceCountIs(type, 0);
      }
    });

    it('refuses two queue entries with sesEvents (SES status events go to one queue)', () => {
      expect(() =>
        engineWith([
          { handler: 'ses-status', queue: 'ses-status', tableAccess: 'readWrite', sesEvents: true },
          { handler: 'process-events', queue: 'events', tableAccess: 'readWrite', sesEvents: true },
        ]),
      ).toThrow(/sesEvents/);
    });
  });

  it('leaves no cdk-nag AwsSolutions finding unacknowledged', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(report.violations.map((v) => `${v.ruleName} at ${v.violatingResources[0]?.constructPath}`)).toEqual([]);
  });
});
