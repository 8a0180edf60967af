import { Match } from 'aws-cdk-lib/assertions';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { queueFunctions } from '../../functions/queues.js';
import { routeKey, routes, type RouteDefinition } from '../../functions/routes.js';
import { scheduledFunctions } from '../../functions/scheduled.js';
import { streamFunctions } from '../../functions/streams.js';
import { composeApp } from '../../infra/compose-app.js';
import { routesOnAws } from '../../infra/route-function.js';
import { TABLE_KEYS } from '../../shared/adapters/dynamo/table-definition.js';
import { fallbackRoutes } from '../../shared/http/route-overlaps.js';
import { appWith, logicalIdOf, synthesize, type Resource as AppResource } from './support/synthesized-stack.js';

type Resource = AppResource & { DeletionPolicy?: string };
type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown };

// The app's stacks as one template (test/infra/support); synthesis runs the cdk-nag plugin, which throws on a finding.
const { app, template, stacks } = synthesize();
/** The route table as AWS serves it: the local runtime's own routes (localOnly) are not built. */
const awsRoutes = routesOnAws(routes);
const resources = template.toJSON().Resources as Record<string, Resource>;

const WRITE_ACTIONS = ['dynamodb:BatchWriteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'];
const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];

/** Route → integration → function, following the references in the template as API Gateway does. */
function functionOf(route: RouteDefinition): { functionId: string; fn: Resource } {
  const matches = Object.values(resources).filter(
    (r) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties.RouteKey === routeKey(route),
  );
  expect(matches).toHaveLength(1);
  const target = matches[0]!.Properties.Target as { 'Fn::Join': [string, [string, unknown]] };
  expect(target['Fn::Join'][1][0]).toBe('integrations/');
  const integration = resources[logicalIdOf(target['Fn::Join'][1][1])]!;
  expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
  const functionId = logicalIdOf(integration.Properties.IntegrationUri);
  return { functionId, fn: resources[functionId]! };
}

/** Every IAM action granted to the function's role, by the policies attached to it. */
function statementsOf(fn: Resource): Statement[] {
  const roleId = logicalIdOf(fn.Properties.Role);
  expect(resources[roleId]!.Properties.ManagedPolicyArns).toBeUndefined();
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy')
    .filter((r) => (r.Properties.Roles as unknown[]).some((role) => logicalIdOf(role) === roleId))
    .flatMap((r) => (r.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
}

function actionsOf(fn: Resource): string[] {
  return statementsOf(fn).flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
}

/**
 * Resources one stack may hold here; CloudFormation refuses 501 (docs/stacks.md). Measured 2026-11-28 with the
 * journeys (their queue, DLQ and advance-runs, sweep-runs, 15 routes in JourneysRoutes): the root 95, the largest
 * nested stack AccountRoutes 100, EngineFunctions 81, JourneysRoutes 66 — every stack far under the budget.
 */
const STACK_BUDGET = 470;

describe('EmailLifecycle stack', () => {
  it("gives each queue and stream function the memory its table entry names (the cost bench's sizing), else 512 MB", () => {
    const memoryOf = (description: string) =>
      Object.values(resources).find(
        (r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Description === description,
      )?.Properties.MemorySize;
    for (const q of queueFunctions) expect(memoryOf(`${q.queue} queue -> ${q.handler}`)).toBe(q.memoryMb ?? 512);
    for (const s of streamFunctions) expect(memoryOf(`table stream -> ${s.handler}`)).toBe(s.memoryMb ?? 512);
    expect(memoryOf('workflow queue -> execute-workflow')).toBe(1024);
    expect(memoryOf('table stream -> webhook-facts')).toBe(1024);
  });

  // CloudFormation refuses a stack of more than 500 resources at deploy time. Each stack keeps 30 of them spare, so
  // this fails while a change still fits: move routes to another area (infra/route-groups.ts) before it does.
  it(`keeps every stack at most ${STACK_BUDGET} resources (CloudFormation allows 500)`, () => {
    const counts = stacks.map(({ path, template: own }) => ({
      path,
      resources: Object.keys(own.toJSON().Resources as object).length,
    }));
    console.log(counts.map(({ path, resources: count }) => `${String(count).padStart(4)}  ${path}`).join('\n'));
    expect(counts.length).toBeGreaterThan(1);
    expect(counts.filter(({ resources: count }) => count > STACK_BUDGET)).toEqual([]);
  });

  it('has the single table of TABLE_KEYS: on demand, PITR, TTL, deletion protection, retained', () => {
    template.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
    template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        KeySchema: [
          { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
        ],
        AttributeDefinitions: Match.arrayWith(
          [
            TABLE_KEYS.partitionKey,
            TABLE_KEYS.sortKey,
            TABLE_KEYS.gsi1.partitionKey,
            TABLE_KEYS.gsi1.sortKey,
            TABLE_KEYS.gsi2.partitionKey,
            TABLE_KEYS.gsi2.sortKey,
            TABLE_KEYS.gsi3.partitionKey,
            TABLE_KEYS.gsi3.sortKey,
          ].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        ),
        GlobalSecondaryIndexes: [
          {
            IndexName: TABLE_KEYS.gsi1.name,
            KeySchema: [
              { AttributeName: TABLE_KEYS.gsi1.partitionKey, KeyType: 'HASH' },
              { AttributeName: TABLE_KEYS.gsi1.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
          {
            IndexName: TABLE_KEYS.gsi2.name,
            KeySchema: [
              { AttributeName: TABLE_KEYS.gsi2.partitionKey, KeyType: 'HASH' },
              { AttributeName: TABLE_KEYS.gsi2.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'KEYS_ONLY' },
          },
          {
            // Claims in flight: the stuck-execution sweep's sparse view.
            IndexName: TABLE_KEYS.gsi3.name,
            KeySchema: [
              { AttributeName: TABLE_KEYS.gsi3.partitionKey, KeyType: 'HASH' },
              { AttributeName: TABLE_KEYS.gsi3.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'KEYS_ONLY' },
          },
        ],
        BillingMode: 'PAY_PER_REQUEST',
        TimeToLiveSpecification: { AttributeName: TABLE_KEYS.ttlAttribute, Enabled: true },
        Replicas: [
          Match.objectLike({
            DeletionProtectionEnabled: true,
            PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          }),
        ],
      }),
    });
  });

  it('declares one Lambda per entry of the route table (its API route, and HEAD for a GET), per queue and scheduled function, and the $default one', () => {
    const getRoutes = awsRoutes.filter((route) => route.method === 'GET').length;
    // …plus the literal paths' missing methods, routed to the $default function.
    template.resourceCountIs(
      'AWS::ApiGatewayV2::Route',
      awsRoutes.length + getRoutes + 1 + fallbackRoutes(awsRoutes).length,
    );
    template.resourceCountIs(
      'AWS::Lambda::Function',
      awsRoutes.length + queueFunctions.length + scheduledFunctions.length + streamFunctions.length + 1,
    );
  });

  it.each(awsRoutes.map((route) => [routeKey(route), route] as const))(
    'serves %s with its own nodejs22.x arm64 function',
    (_key, route) => {
      const { functionId, fn } = functionOf(route);
      template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        Principal: 'apigateway.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [functionId, 'Arn'] },
      });
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        Timeout: route.timeoutSeconds ?? 10,
        MemorySize: route.memoryMb ?? 512,
        Description: routeKey(route),
        Environment: {
          Variables: {
            TABLE_NAME: { Ref: expect.stringMatching(/^Table/) as unknown },
            POWERTOOLS_SERVICE_NAME: 'email-lifecycle',
            NODE_OPTIONS: '--enable-source-maps',
          },
        },
      });
      const logGroup = resources[logicalIdOf((fn.Properties.LoggingConfig as { LogGroup: unknown }).LogGroup)]!;
      expect(logGroup).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 30 } });
    },
  );

  it.each(awsRoutes.map((route) => [routeKey(route), route] as const))(
    'grants %s only what its tableAccess (and its sendsTo/schedules) allows',
    (_key, route) => {
      const { fn } = functionOf(route);
      const actions = actionsOf(fn);
      expect(actions).toEqual(expect.arrayContaining(READ_ACTIONS));
      if (route.tableAccess === 'read') {
        // A read route writes only its request counters: UpdateItem in one statement held to their partition keys.
        const writes = statementsOf(fn).filter((s) =>
          (Array.isArray(s.Action) ? s.Action : [s.Action]).some((a) => WRITE_ACTIONS.includes(a)),
        );
        expect(writes).toEqual([
          expect.objectContaining({
            Action: 'dynamodb:UpdateItem',
            Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*', 'IPRATE#*'] } },
          }),
        ]);
      } else expect(actions).toEqual(expect.arrayContaining(WRITE_ACTIONS));
      // Its own log group and the table, plus the engine actions its entry names (test/infra/engine.test.ts
      // checks their resources): no wildcard action, no `*` resource.
      const engineActions = [
        ...(route.sendsTo?.length ? ['sqs:SendMessage'] : []),
        ...(route.schedules ? ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule', 'iam:PassRole'] : []),
        ...(route.sendsEmail ? ['ses:SendEmail', 'ses:GetTenant', 'ses:GetReputationEntity'] : []),
        // Clients' sending domains and tenants (test/infra/mail-senders.test.ts checks their resources).
        ...(route.managesSenders
          ? [
              'ses:CreateEmailIdentity',
              'ses:GetEmailIdentity',
              'ses:DeleteEmailIdentity',
              'ses:PutEmailIdentityMailFromAttributes',
              'ses:TagResource',
              'ses:ListResourceTenants',
              'ses:CreateTenant',
              'ses:GetTenant',
              'ses:GetReputationEntity',
              'ses:CreateTenantResourceAssociation',
              'ses:DeleteTenantResourceAssociation',
              'ses:CreateConfigurationSet',
              'ses:CreateConfigurationSetEventDestination',
              'ses:GetConfigurationSet',
              'ses:GetConfigurationSetEventDestinations',
              'ses:UpdateReputationEntityPolicy',
            ]
          : []),
        // A read of the link secret (test/infra/secrets.test.ts checks it names that secret alone).
        ...(route.usesLinkSecret || route.sendsEmail
          ? ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret']
          : []),
      ];
      for (const action of actions) {
        if (engineActions.includes(action)) continue;
        expect(action).toMatch(/^(dynamodb:[A-Za-z]+|logs:(CreateLogStream|PutLogEvents))$/);
      }
      expect(actions).toEqual(expect.arrayContaining(engineActions));
      for (const statement of statementsOf(fn)) expect(JSON.stringify(statement.Resource)).not.toBe('"*"');
    },
  );

  it('logs every request as JSON and throttles the $default stage', () => {
    const [stage] = Object.values(template.findResources('AWS::ApiGatewayV2::Stage')) as Resource[];
    expect(stage!.Properties).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 2000, ThrottlingBurstLimit: 4000 },
    });
    const accessLog = stage!.Properties.AccessLogSettings as { DestinationArn: unknown; Format: string };
    expect(resources[logicalIdOf(accessLog.DestinationArn)]!.Type).toBe('AWS::Logs::LogGroup');
    expect(Object.keys(JSON.parse(accessLog.Format) as object)).toEqual(
      expect.arrayContaining(['requestId', 'routeKey', 'status', 'httpMethod', 'responseLatency', 'ip']),
    );
  });

  it('outputs the API URL ending in /api/v1 and the table name', () => {
    template.hasOutput('ApiUrl', {
      Value: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [Match.anyValue(), 'ApiEndpoint'] }, '/api/v1']] },
    });
    template.hasOutput('TableName', { Value: { Ref: Match.stringLikeRegexp('^Table') } });
  });

  it('leaves no cdk-nag AwsSolutions finding unacknowledged', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    const findings = report.violations.map((v) => `${v.ruleName} at ${v.violatingResources[0]?.constructPath}`);
    expect(findings).toEqual([]);
  });

  it('fails the synth on an unacknowledged cdk-nag finding (the check is live)', () => {
    const app = appWith();
    const stack = composeApp(app);
    new Role(stack, 'Probe', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('AdministratorAccess')],
    });
    expect(() => app.synth()).toThrow(/AwsSolutions-IAM4/);
  });

  it('takes deletion protection, throttling and function settings from CDK context', () => {
    const { template: custom } = synthesize({
      deletionProtection: 'false',
      throttleRateLimit: '20',
      throttleBurstLimit: '40',
      jwtIssuer: 'https://issuer.example.com/',
      jwtJwksUrl: 'https://issuer.example.com/.well-known/jwks.json',
      jwtMaxLifetimeSeconds: 3600,
      bulkImportLimit: 500,
      publicBaseUrl: 'https://mail.example.com',
      linksBaseUrl: 'https://links.example.com',
    });
    custom.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({ Replicas: [Match.objectLike({ DeletionProtectionEnabled: false })] }),
    });
    custom.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 },
    });
    // Every function of the tables; the $default function (test/infra/http-semantics.test.ts) takes no settings.
    const functions = (Object.values(custom.findResources('AWS::Lambda::Function')) as Resource[]).filter(
      (fn) => !String(fn.Properties.Description).startsWith('$default'),
    );
    expect(functions).toHaveLength(
      awsRoutes.length + queueFunctions.length + scheduledFunctions.length + streamFunctions.length,
    );
    for (const fn of functions) {
      expect((fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables).toMatchObject({
        JWT_ISSUER: 'https://issuer.example.com/',
        JWT_JWKS_URL: 'https://issuer.example.com/.well-known/jwks.json',
        JWT_MAX_LIFETIME_SECONDS: '3600',
        BULK_IMPORT_LIMIT: '500',
        PUBLIC_BASE_URL: 'https://mail.example.com',
        LINKS_BASE_URL: 'https://links.example.com',
      });
    }
    // A function of the tables built without those settings (the $default one takes none at all).
    const [defaultFn] = (Object.values(template.findResources('AWS::Lambda::Function')) as Resource[]).filter(
      (fn) => !String(fn.Properties.Description).startsWith('$default'),
    );
    const defaultVariables = (defaultFn!.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(defaultVariables).not.toHaveProperty('JWT_ISSUER');
    // Without a host of their own, the links in e-mails are on the service's origin (PUBLIC_BASE_URL).
    expect(defaultVariables).not.toHaveProperty('LINKS_BASE_URL');
    // Without a public origin, links point at the API itself.
    expect(defaultVariables.PUBLIC_BASE_URL).toEqual({ 'Fn::GetAtt': [expect.any(String), 'ApiEndpoint'] });
  });

  it.each([
    ['deletionProtection', 'maybe'],
    ['throttleRateLimit', '-5'],
    ['linksBaseUrl', 'links.example.com'],
    ['linksBaseUrl', 'http://links.example.com'],
  ])('refuses a malformed %s context value', (key, value) => {
    expect(() => composeApp(appWith({ [key]: value }))).toThrow(key);
  });

  it("refuses links on the dashboard's own host: they would separate nothing", () => {
    expect(() =>
      composeApp(
        appWith({ publicBaseUrl: 'https://mail.example.com', linksBaseUrl: 'https://mail.example.com/links' }),
      ),
    ).toThrow(/linksBaseUrl" must be a host other than publicBaseUrl's/);
  });
});
