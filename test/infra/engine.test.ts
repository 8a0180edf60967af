import { CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { Match } from 'aws-cdk-lib/assertions';
import { mockClient } from 'aws-sdk-client-mock';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { QUEUE_FUNCTION_DEFAULTS, VISIBILITY_TIMEOUT_FACTOR, queueFunctions } from '../../functions/queues.js';
import { routeKey, routes } from '../../functions/routes.js';
import { scheduledFunctions } from '../../functions/scheduled.js';
import { composeApp } from '../../infra/compose-app.js';
import { JOURNEY_MINUTE_ENV } from '../../local/journey-time.js';
import type { ResourceNeeds } from '../../infra/shared-resources.js';
import { SES_DEFAULT_MAX_SEND_RATE, sizeQueueFunctions } from '../../infra/queue-concurrency.js';
import { routesOnAws } from '../../infra/route-function.js';
import { queueUrlVariable } from '../../infra/work-queue.js';
import { createContainer } from '../../shared/composition/container.js';
import { journeyTime as journeyTimeProvider } from '../../shared/composition/providers/journey-time.js';
import { queue as queueProvider } from '../../shared/composition/providers/queue.js';
import { scheduler as schedulerProvider } from '../../shared/composition/providers/scheduler.js';
import { loadConfig } from '../../shared/config.js';
import { dispatchRun } from '../../shared/domain/engine/dispatch.js';
import type { QueueName } from '../../shared/platform.js';
import {
  allowing,
  appWith,
  arnText,
  asList,
  logicalIdOf,
  SENDER_CONTEXT,
  statementsOfRole,
  synthesize,
  type Resource,
  type Statement,
} from './support/synthesized-stack.js';

const { app, template, resources } = synthesize();

/** Every function of the three tables built on AWS, found in the template by the description infra gives it. */
const ENTRIES: { name: string; description: string; needs: ResourceNeeds }[] = [
  ...routesOnAws(routes).map((route) => ({ name: routeKey(route), description: routeKey(route), needs: route })),
  ...queueFunctions.map((q) => ({ name: q.handler, description: `${q.queue} queue -> ${q.handler}`, needs: q })),
  ...scheduledFunctions.map((s) => ({
    name: s.handler,
    description: `every ${s.everyMinutes} min -> ${s.handler}`,
    needs: s,
  })),
];

function functionOf(description: string) {
  const found = Object.entries(resources).filter(
    ([, r]) => r.Type === 'AWS::Lambda::Function' && r.Properties.Description === description,
  );
  expect(found).toHaveLength(1);
  const [id, fn] = found[0]!;
  const roleId = logicalIdOf(fn.Properties.Role);
  return {
    id,
    fn,
    role: resources[roleId]!,
    statements: statementsOfRole(resources, roleId),
    env: (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables,
  };
}
const functionNamed = (name: string) =>
  functionOf(ENTRIES.find((e) => e.name === name || e.description === name)!.description);

/** The queue a queue function consumes, followed through its event source mapping. */
function consumedQueue(queue: QueueName) {
  const definition = queueFunctions.find((q) => q.queue === queue)!;
  const consumer = functionOf(`${queue} queue -> ${definition.handler}`);
  const mappings = Object.values(resources).filter(
    (r) => r.Type === 'AWS::Lambda::EventSourceMapping' && logicalIdOf(r.Properties.FunctionName) === consumer.id,
  );
  expect(mappings).toHaveLength(1);
  const queueId = logicalIdOf(mappings[0]!.Properties.EventSourceArn);
  return { definition, consumer, mapping: mappings[0]!, queueId, queue: resources[queueId]! };
}

const isTlsOnly = (queueId: string): boolean =>
  Object.values(resources).some(
    (r) =>
      r.Type === 'AWS::SQS::QueuePolicy' &&
      (r.Properties.Queues as unknown[]).some((q) => logicalIdOf(q) === queueId) &&
      (r.Properties.PolicyDocument as { Statement: Statement[] }).Statement.some(
        (s) => s.Effect === 'Deny' && s.Condition?.['Bool']?.['aws:SecureTransport'] === 'false',
      ),
  );

const alarmsOn = (queueId: string): Resource[] =>
  Object.values(resources).filter(
    (r) =>
      r.Type === 'AWS::CloudWatch::Alarm' &&
      ((r.Properties.Dimensions ?? []) as { Name: string; Value: unknown }[]).some(
        (d) => d.Name === 'QueueName' && logicalIdOf(d.Value) === queueId,
      ),
  );

const schedulerRoleId = (): string => {
  const ids = Object.entries(resources)
    .filter(([, r]) => r.Type === 'AWS::IAM::Role')
    .filter(([, r]) => JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('scheduler.amazonaws.com'))
    .map(([id]) => id);
  expect(ids).toHaveLength(1);
  return ids[0]!;
};

const scheduleGroupName = (): string => {
  const groups = Object.values(resources).filter((r) => r.Type === 'AWS::Scheduler::ScheduleGroup');
  expect(groups).toHaveLength(1);
  return groups[0]!.Properties.Name as string;
};

/** advance-runs' configuration as Lambda gives it: the stack's variables, references made concrete. */
function advanceRunsConfig() {
  const { env } = functionNamed('advance-runs');
  const concrete = Object.fromEntries(
    Object.entries(env).map(([name, value]) => [
      name,
      typeof value === 'string'
        ? value
        : name.endsWith('_URL')
          ? `https://sqs.eu-west-1.amazonaws.com/123456789012/${logicalIdOf(value)}`
          : `arn:aws:sqs:eu-west-1:123456789012:${logicalIdOf(value)}`,
    ]),
  );
  return loadConfig({ ...concrete, AWS_REGION: 'eu-west-1' });
}

const QUEUE_NAMES = [...new Set(queueFunctions.map((q) => q.queue))];

/** The clients' configuration set's id, then the service's own mail's. */
function configurationSetIds(): [string, string] {
  const ids = Object.entries(resources)
    .filter(([, r]) => r.Type === 'AWS::SES::ConfigurationSet')
    .map(([id]) => id);
  const system = ids.find((id) => /SystemConfigurationSet/.test(id))!;
  return [ids.find((id) => id !== system)!, system];
}

describe('the engine on AWS', () => {
  describe('queues', () => {
    it.each(QUEUE_NAMES)(
      'gives the %s queue a DLQ after 5 receives, kept 14 days, both encrypted and TLS only',
      (name) => {
        const { queue, queueId, definition } = consumedQueue(name);
        const redrive = queue.Properties.RedrivePolicy as { maxReceiveCount: number; deadLetterTargetArn: unknown };
        expect(redrive.maxReceiveCount).toBe(definition.maxReceiveCount ?? QUEUE_FUNCTION_DEFAULTS.maxReceiveCount);
        expect(redrive.maxReceiveCount).toBe(5);
        const dlqId = logicalIdOf(redrive.deadLetterTargetArn);
        expect(resources[dlqId]!.Properties).toMatchObject({
          SqsManagedSseEnabled: true,
          MessageRetentionPeriod: 14 * 24 * 3600,
        });
        expect(queue.Properties).toMatchObject({ SqsManagedSseEnabled: true });
        expect(isTlsOnly(queueId)).toBe(true);
        expect(isTlsOnly(dlqId)).toBe(true);
      },
    );

    it.each(QUEUE_NAMES)("hides a received %s message for at least 6× its consumer's timeout", (name) => {
      const { queue, consumer } = consumedQueue(name);
      const timeout = consumer.fn.Properties.Timeout as number;
      expect(VISIBILITY_TIMEOUT_FACTOR).toBeGreaterThanOrEqual(6);
      expect(queue.Properties.VisibilityTimeout).toBe(timeout * VISIBILITY_TIMEOUT_FACTOR);
      expect(queue.Properties.VisibilityTimeout as number).toBeGreaterThanOrEqual(6 * timeout);
    });

    it.each(QUEUE_NAMES)(
      'maps the %s queue to its function with ReportBatchItemFailures, its batch size and maximum concurrency',
      (name) => {
        const { mapping } = consumedQueue(name);
        // As built on AWS: the table's entry, a sender sized to the default SES rate (test/infra/operations.test.ts).
        const sized = sizeQueueFunctions(queueFunctions, {
          sesMaxSendRate: SES_DEFAULT_MAX_SEND_RATE,
          maxConcurrency: {},
        }).find((q) => q.queue === name)!;
        expect(mapping.Properties).toMatchObject({
          FunctionResponseTypes: ['ReportBatchItemFailures'],
          BatchSize: sized.batchSize ?? QUEUE_FUNCTION_DEFAULTS.batchSize,
          ScalingConfig: { MaximumConcurrency: sized.maxConcurrency },
        });
      },
    );

    it("alarms as soon as one message sits in any DLQ: each queue's and the schedules'", () => {
      const scheduleDlqId = logicalIdOf(functionNamed('execute-workflow').env.SCHEDULER_DLQ_ARN);
      const dlqIds = [
        ...QUEUE_NAMES.map((name) =>
          logicalIdOf(
            (consumedQueue(name).queue.Properties.RedrivePolicy as { deadLetterTargetArn: unknown })
              .deadLetterTargetArn,
          ),
        ),
        scheduleDlqId,
      ];
      for (const dlqId of dlqIds) {
        const alarms = alarmsOn(dlqId);
        expect(alarms).toHaveLength(1);
        expect(alarms[0]!.Properties).toMatchObject({
          Namespace: 'AWS/SQS',
          MetricName: 'ApproximateNumberOfMessagesVisible',
          Threshold: 1,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
          TreatMissingData: 'notBreaching',
        });
      }
      expect(resources[scheduleDlqId]!.Properties).toMatchObject({
        SqsManagedSseEnabled: true,
        MessageRetentionPeriod: 14 * 24 * 3600,
      });
      expect(isTlsOnly(scheduleDlqId)).toBe(true);
    });
  });

  describe('scheduler', () => {
    it('has one schedule group and a role only EventBridge Scheduler may assume, for this account and group', () => {
      const role = resources[schedulerRoleId()]!;
      const trust = (role.Properties.AssumeRolePolicyDocument as { Statement: (Statement & { Principal: unknown })[] })
        .Statement;
      expect(trust).toHaveLength(1);
      expect(trust[0]).toMatchObject({
        Effect: 'Allow',
        Action: 'sts:AssumeRole',
        Principal: { Service: 'scheduler.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
      });
      const sourceArns = asList(trust[0]!.Condition!['ArnLike']!['aws:SourceArn']);
      const groupId = Object.entries(resources).find(([, r]) => r.Type === 'AWS::Scheduler::ScheduleGroup')![0];
      expect(sourceArns).toEqual([
        { 'Fn::GetAtt': [groupId, 'Arn'] },
        expect.objectContaining({ 'Fn::Join': expect.anything() as unknown }),
      ]);
      expect(arnText(sourceArns[1])).toBe(
        `arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/${scheduleGroupName()}/*`,
      );
    });

    it("lets the scheduler role send to the workflow, journey, broadcast and webhook queues and the schedules' DLQ, and do nothing else", () => {
      const roleId = schedulerRoleId();
      const role = resources[roleId]!;
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      expect(role.Properties.Policies).toBeUndefined();
      const statements = statementsOfRole(resources, roleId);
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatchObject({ Effect: 'Allow', Action: 'sqs:SendMessage' });
      const targets = asList(statements[0]!.Resource).map((r) => logicalIdOf(r));
      const scheduleDlqId = logicalIdOf(functionNamed('execute-workflow').env.SCHEDULER_DLQ_ARN);
      expect(targets.sort()).toEqual(
        [
          consumedQueue('workflow').queueId,
          consumedQueue('journey').queueId,
          consumedQueue('broadcast').queueId,
          consumedQueue('webhooks').queueId,
          consumedQueue('webhooks-failing').queueId,
          scheduleDlqId,
        ].sort(),
      );
    });

    it.each(ENTRIES.map((e) => [e.name, e] as const))(
      'lets %s create schedules and pass the scheduler role only if its entry schedules',
      (_name, entry) => {
        const { statements, env } = functionOf(entry.description);
        const creates = allowing(statements, 'scheduler:CreateSchedule');
        const passes = allowing(statements, 'iam:PassRole');
        if (!entry.needs.schedules) {
          expect([...creates, ...passes]).toEqual([]);
          expect(env).not.toHaveProperty('SCHEDULER_ROLE_ARN');
          return;
        }
        // Create, and Delete for a schedule whose execution a goal cancelled; only on the group's schedules.
        expect(creates).toHaveLength(1);
        expect(asList(creates[0]!.Action)).toEqual(['scheduler:CreateSchedule', 'scheduler:DeleteSchedule']);
        expect(asList(creates[0]!.Resource).map(arnText)).toEqual([
          `arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/${scheduleGroupName()}/*`,
        ]);
        expect(passes).toHaveLength(1);
        expect(passes[0]).toMatchObject({
          Action: 'iam:PassRole',
          Resource: { 'Fn::GetAtt': [schedulerRoleId(), 'Arn'] },
          Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
        });
        expect(env).toMatchObject({
          SCHEDULER_GROUP_NAME: scheduleGroupName(),
          SCHEDULER_ROLE_ARN: { 'Fn::GetAtt': [schedulerRoleId(), 'Arn'] },
          SCHEDULER_DLQ_ARN: { 'Fn::GetAtt': [expect.any(String), 'Arn'] },
          WORKFLOW_QUEUE_ARN: { 'Fn::GetAtt': [consumedQueue('workflow').queueId, 'Arn'] },
          JOURNEY_QUEUE_ARN: { 'Fn::GetAtt': [consumedQueue('journey').queueId, 'Arn'] },
        });
      },
    );
  });

  describe('journey runs', () => {
    it('consumes the journey queue with advance-runs, 10 at a time, with a DLQ after 5 receives', () => {
      const { definition, mapping, queue, queueId } = consumedQueue('journey');
      expect(definition.handler).toBe('advance-runs');
      expect(mapping.Properties).toMatchObject({
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        BatchSize: 10,
        ScalingConfig: { MaximumConcurrency: 10 },
      });
      const dlqId = logicalIdOf(
        (queue.Properties.RedrivePolicy as { deadLetterTargetArn: unknown }).deadLetterTargetArn,
      );
      expect(queue.Properties.RedrivePolicy).toMatchObject({ maxReceiveCount: 5 });
      expect(alarmsOn(dlqId)).toHaveLength(1);
      expect(isTlsOnly(queueId)).toBe(true);
      // A run message may carry SQS's longest delay (a wait of up to 15 minutes): the age alarm allows for it.
      const ageAlarms = alarmsOn(queueId).filter((a) => a.Properties.MetricName === 'ApproximateAgeOfOldestMessage');
      expect(ageAlarms).toHaveLength(1);
      expect(ageAlarms[0]!.Properties.Threshold as number).toBeGreaterThan(15 * 60);
    });

    // Every function that dispatches a run: the event's entries and resumed waits, each transition, an ended send
    // step's wake, the stuck-run sweep. The first three may dispatch beyond 15 minutes (a schedule).
    it.each([
      ['process-events', true],
      ['advance-runs', true],
      ['execute-workflow', true],
      ['sweep-runs', false],
    ] as const)('lets %s send run messages to the journey queue (schedules: %s)', (handler, schedules) => {
      const { statements, env } = functionNamed(handler);
      const journeyQueueId = consumedQueue('journey').queueId;
      const sendTargets = allowing(statements, 'sqs:SendMessage').flatMap((s) =>
        asList(s.Resource).map((r) => logicalIdOf(r)),
      );
      expect(sendTargets).toContain(journeyQueueId);
      expect(env[queueUrlVariable('journey')]).toEqual({ Ref: journeyQueueId });
      if (!schedules) {
        expect(allowing(statements, 'scheduler:CreateSchedule')).toEqual([]);
        return;
      }
      expect(allowing(statements, 'scheduler:CreateSchedule')).toHaveLength(1);
      expect(allowing(statements, 'iam:PassRole')).toEqual([
        expect.objectContaining({ Resource: { 'Fn::GetAtt': [schedulerRoleId(), 'Arn'] } }),
      ]);
      expect(env.JOURNEY_QUEUE_ARN).toEqual({ 'Fn::GetAtt': [journeyQueueId, 'Arn'] });
    });

    it("dispatches a run from advance-runs' environment: SQS within 15 minutes, a schedule on the journey queue beyond", async () => {
      // Prepare: the providers built from the variables the stack gives advance-runs, references made concrete.
      const config = advanceRunsConfig();
      const sqs = mockClient(SQSClient).on(SendMessageCommand).resolves({ MessageId: 'm-1' });
      const schedules = mockClient(SchedulerClient).on(CreateScheduleCommand).resolves({});
      const deps = createContainer({ config }).resolve([queueProvider, schedulerProvider]);
      const journeyQueueId = consumedQueue('journey').queueId;
      const now = new Date();
      const message = { client_id: 7, run_id: 42, seq: 3 };

      // Act
      await dispatchRun(
        { queue: deps.queue, scheduler: deps.scheduler },
        message,
        new Date(now.getTime() + 60_000),
        now,
      );
      await dispatchRun(
        { queue: deps.queue, scheduler: deps.scheduler },
        message,
        new Date(now.getTime() + 3_600_000),
        now,
      );

      // Assess
      expect(sqs.commandCalls(SendMessageCommand).map((c) => c.args[0].input)).toEqual([
        expect.objectContaining({
          QueueUrl: `https://sqs.eu-west-1.amazonaws.com/123456789012/${journeyQueueId}`,
          DelaySeconds: 60,
        }),
      ]);
      expect(schedules.commandCalls(CreateScheduleCommand).map((c) => c.args[0].input.Target)).toEqual([
        expect.objectContaining({
          Arn: `arn:aws:sqs:eu-west-1:123456789012:${journeyQueueId}`,
          Input: JSON.stringify(message),
        }),
      ]);
      sqs.restore();
      schedules.restore();
    });

    it("waits a journey's minutes in real minutes: no function gets the local runtime's minute, advance-runs' container ignores it", () => {
      // Prepare: the variable set where a container could read it, as if it leaked into a function's environment.
      const variables = Object.values(resources)
        .filter((r) => r.Type === 'AWS::Lambda::Function')
        .flatMap((fn) =>
          Object.keys((fn.Properties.Environment as { Variables?: object } | undefined)?.Variables ?? {}),
        );
      const config = advanceRunsConfig();
      const previous = process.env[JOURNEY_MINUTE_ENV];
      process.env[JOURNEY_MINUTE_ENV] = '1000';

      // Act
      const deps = createContainer({ config }).resolve([journeyTimeProvider]);

      // Assess
      if (previous === undefined) delete process.env[JOURNEY_MINUTE_ENV];
      else process.env[JOURNEY_MINUTE_ENV] = previous;
      expect(variables.length).toBeGreaterThan(0);
      expect(variables).not.toContain(JOURNEY_MINUTE_ENV);
      expect(deps.journeyTime.minuteMs).toBe(60_000);
    });
  });

  describe('least privilege', () => {
    it.each(ENTRIES.map((e) => [e.name, e] as const))(
      'lets %s send to exactly the queues its entry names',
      (_name, entry) => {
        const { statements, env } = functionOf(entry.description);
        const sendTargets = allowing(statements, 'sqs:SendMessage').flatMap((s) =>
          asList(s.Resource).map((r) => logicalIdOf(r)),
        );
        const expected = (entry.needs.sendsTo ?? []).map((name) => consumedQueue(name).queueId);
        expect(sendTargets.sort()).toEqual([...expected].sort());
        for (const name of QUEUE_NAMES) {
          const variable = queueUrlVariable(name);
          if (entry.needs.sendsTo?.includes(name)) expect(env[variable]).toEqual({ Ref: consumedQueue(name).queueId });
          else expect(env).not.toHaveProperty(variable);
        }
      },
    );

    it.each(ENTRIES.map((e) => [e.name, e] as const))(
      'lets %s send e-mail only if its entry says so, clients’ mail and the service’s own each by its own grant',
      (_name, entry) => {
        const { statements, env } = functionOf(entry.description);
        const sends = statements.filter((s) => asList(s.Action).includes('ses:SendEmail'));
        const sendsSystemMail = (entry.needs as { sendsSystemMail?: boolean }).sendsSystemMail === true;
        const [configurationSetId, systemSetId] = configurationSetIds();
        const ses = 'arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>';
        const systemIdentities = [
          `${ses}:identity/mail.example.org`,
          `${ses}:identity/${SENDER_CONTEXT.systemFromEmail}`,
        ];
        const shapeOf = (s: Statement) => ({
          Effect: s.Effect,
          Resource: asList(s.Resource).map(arnText).sort(),
          ...(s.Condition ? { Condition: s.Condition } : {}),
        });
        if (entry.needs.sendsEmail) {
          // Any identity through a client's own set or the shared one; never the service's own set, identities or
          // From (test/infra/mail-senders.test.ts).
          expect(sends.map(shapeOf)).toEqual([
            {
              Effect: 'Allow',
              Resource: [
                `${ses}:configuration-set/<${configurationSetId}>`,
                `${ses}:configuration-set/emaillifecycle-client-*`,
                `${ses}:identity/*`,
              ],
            },
            {
              Effect: 'Deny',
              Resource: [`${ses}:configuration-set/<${systemSetId}>`, ...systemIdentities].sort(),
            },
            {
              Effect: 'Deny',
              Resource: [`${ses}:identity/*`],
              Condition: {
                StringLike: {
                  'ses:FromAddress': [SENDER_CONTEXT.systemFromEmail, '*@mail.example.org', '*@*.mail.example.org'],
                },
              },
            },
          ]);
          expect(env.SES_CONFIGURATION_SET).toEqual({ Ref: configurationSetId });
          expect(env).not.toHaveProperty('SES_SYSTEM_CONFIGURATION_SET');
        } else if (sendsSystemMail) {
          // The system address only, through the service's own set.
          expect(sends.map(shapeOf)).toEqual([
            {
              Effect: 'Allow',
              Resource: [...systemIdentities, `${ses}:configuration-set/<${systemSetId}>`].sort(),
              Condition: { StringEquals: { 'ses:FromAddress': SENDER_CONTEXT.systemFromEmail } },
            },
          ]);
          expect(env.SES_SYSTEM_CONFIGURATION_SET).toEqual({ Ref: systemSetId });
          expect(env).not.toHaveProperty('SES_CONFIGURATION_SET');
        } else {
          expect(sends).toEqual([]);
          // The domain routes and poller name the clients' set to the tenants they set up, and send nothing.
          if (!(entry.needs as { managesSenders?: boolean }).managesSenders)
            expect(env).not.toHaveProperty('SES_CONFIGURATION_SET');
          expect(env).not.toHaveProperty('SES_SYSTEM_CONFIGURATION_SET');
        }
        for (const statement of sends) expect(asList(statement.Action)).toEqual(['ses:SendEmail']);
      },
    );

    it.each(ENTRIES.map((e) => [e.name, e] as const))(
      'grants %s no wildcard action, no `*` resource, no managed policy',
      (_name, entry) => {
        const { statements, role } = functionOf(entry.description);
        expect(role.Properties.ManagedPolicyArns).toBeUndefined();
        for (const statement of statements) {
          for (const action of asList(statement.Action)) expect(action).not.toContain('*');
          expect(asList(statement.Resource)).not.toContain('*');
        }
      },
    );

    it('does not let process-events send e-mail, nor health touch a queue, a schedule or the link secret', () => {
      const processEvents = functionNamed('process-events');
      expect(allowing(processEvents.statements, 'ses:SendEmail')).toEqual([]);
      const health = functionNamed('GET /api/v1/health');
      for (const action of ['sqs:SendMessage', 'scheduler:CreateSchedule', 'iam:PassRole', 'ses:SendEmail']) {
        expect(allowing(health.statements, action)).toEqual([]);
      }
      expect(health.env).not.toHaveProperty('LINK_SECRET_ARN');
      expect(allowing(health.statements, 'secretsmanager:GetSecretValue')).toEqual([]);
    });
  });

  describe('SES and the link secret', () => {
    it('has two SES configuration sets (clients’ mail, the service’s own), both suppressing bounces and complaints', () => {
      template.resourceCountIs('AWS::SES::ConfigurationSet', 2);
      for (const id of configurationSetIds()) {
        expect(resources[id]!.Properties).toMatchObject({
          SendingOptions: { SendingEnabled: true },
          SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
        });
      }
      template.hasOutput('SesConfigurationSet', { Value: { Ref: configurationSetIds()[0] } });
    });

    it('generates the link secret: 64 letters and digits', () => {
      template.resourceCountIs('AWS::SecretsManager::Secret', 1);
      template.hasResourceProperties('AWS::SecretsManager::Secret', {
        GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true, IncludeSpace: false },
      });
    });

    it.each(ENTRIES.map((e) => [e.name, e] as const))(
      'lets %s read the link secret at run time only if it sends e-mail or signs/verifies links',
      (_name, entry) => {
        const { env, statements } = functionOf(entry.description);
        const secretActions = statements.filter((s) => asList(s.Action).some((a) => a.startsWith('secretsmanager:')));
        expect(env).not.toHaveProperty('LINK_SECRET');
        if (!(entry.needs.sendsEmail || entry.needs.usesLinkSecret)) {
          expect(env).not.toHaveProperty('LINK_SECRET_ARN');
          expect(secretActions).toEqual([]);
          return;
        }
        // Its ARN and a read of that one secret; the value is read by the function (Powertools), never deployed.
        const secretId = Object.entries(resources).find(([, r]) => r.Type === 'AWS::SecretsManager::Secret')![0];
        expect(env.LINK_SECRET_ARN).toEqual({ Ref: secretId });
        expect(secretActions).toEqual([
          {
            Effect: 'Allow',
            Action: ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'],
            Resource: { Ref: secretId },
          },
        ]);
      },
    );

    it('gives the clients’ senders, and only them, the unsubscribe mailbox; every function the service’s senders', () => {
      const { resources: custom } = synthesize({ unsubscribeMailto: 'unsubscribe@mail.example.org' });
      const functions = Object.values(custom).filter((r) => r.Type === 'AWS::Lambda::Function');
      for (const entry of ENTRIES) {
        const fn = functions.find((r) => r.Properties.Description === entry.description)!;
        const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
        // The settings and domain routes refuse them as a client's From or domain; the settings view shows the onboarding one.
        expect(env).toMatchObject({
          SYSTEM_FROM_EMAIL: SENDER_CONTEXT.systemFromEmail,
          ONBOARDING_FROM_ADDRESS: SENDER_CONTEXT.onboardingFromAddress,
        });
        expect(env).not.toHaveProperty('DEFAULT_FROM_ADDRESS');
        if (entry.needs.sendsEmail) expect(env).toMatchObject({ UNSUBSCRIBE_MAILTO: 'unsubscribe@mail.example.org' });
        else expect(env).not.toHaveProperty('UNSUBSCRIBE_MAILTO');
      }
    });

    it.each(['defaultFromAddress', 'onboardingFromAddress', 'unsubscribeMailto', 'systemFromEmail'])(
      'refuses a %s that is not an e-mail address',
      (key) => {
        expect(() => composeApp(appWith({ [key]: 'not-an-address' }))).toThrow(key);
      },
    );
  });

  it.each(scheduledFunctions.map((s) => [s.handler, s] as const))(
    'runs %s on an EventBridge rule at its interval',
    (_name, definition) => {
      const { id } = functionOf(`every ${definition.everyMinutes} min -> ${definition.handler}`);
      template.hasResourceProperties('AWS::Events::Rule', {
        // EventBridge's rate takes the singular for one unit: rate(1 minute).
        ScheduleExpression: `rate(${definition.everyMinutes} ${definition.everyMinutes === 1 ? 'minute' : 'minutes'})`,
        State: 'ENABLED',
        Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [id, 'Arn'] } })],
      });
    },
  );

  it('leaves no cdk-nag AwsSolutions finding unacknowledged', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(report.violations.map((v) => `${v.ruleName} at ${v.violatingResources[0]?.constructPath}`)).toEqual([]);
  });
});
