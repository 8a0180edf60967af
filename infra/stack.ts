import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { queueFunctions } from '../functions/queues.js';
import { API_BASE_PATH, routes } from '../functions/routes.js';
import { createDataTable } from './data-table.js';
import { EngineStack } from './engine-stack.js';
import { FallbackFunction } from './fallback-function.js';
import { createHttpApi } from './http-api.js';
import { OnCall } from './on-call.js';
import { OperationsStack } from './operations-stack.js';
import { sizeQueueFunctions } from './queue-concurrency.js';
import { routesOnAws } from './route-function.js';
import { RouteGroupStack } from './route-group-stack.js';
import { groupRoutes } from './route-groups.js';
import { SharedResources } from './shared-resources.js';
import type { StackSettings } from './stack-settings.js';

export interface EmailLifecycleStackProps extends StackProps {
  settings: StackSettings;
}

/**
 * The root stack: what is shared or holds data — the table, the HTTP API with its stage and its `$default` fallback,
 * the shared resources (the queues of functions/queues.ts with their DLQs, the Scheduler group, SES's configuration
 * sets and status events, the link secret) and the on-call topic — and the nested stacks that hold the functions:
 * one per area of the API (infra/route-groups.ts), the engine (queue, scheduled and stream functions) and operations
 * (alarms, the operations dashboard). `cdk deploy` of this stack deploys them all (docs/stacks.md).
 */
export class EmailLifecycleStack extends Stack {
  readonly routeGroups: readonly RouteGroupStack[];
  readonly engine: EngineStack;
  readonly operations: OperationsStack;

  constructor(scope: Construct, id: string, props: EmailLifecycleStackProps) {
    super(scope, id, props);
    const { settings } = props;

    const table = createDataTable(this, { deletionProtection: settings.deletionProtection });
    const { api, stage } = createHttpApi(this, settings);
    // The queue table as built on AWS: every mapping with a maximum concurrency, the senders sized to SES's rate.
    const queueTable = sizeQueueFunctions(queueFunctions, settings.queueConcurrency);
    // The construct id the queues, the link secret and the schedule group were first deployed under: their logical ids
    // derive from it, and a new one would replace them (messages, schedules and the key with them).
    const shared = new SharedResources(this, 'Engine', {
      queueFunctions: queueTable,
      deletionProtection: settings.deletionProtection,
      senderEnvironment: settings.senderEnvironment,
      mailSenders: settings.mailSenders,
    });

    const environment = {
      TABLE_NAME: table.tableName,
      POWERTOOLS_SERVICE_NAME: 'email-lifecycle',
      NODE_OPTIONS: '--enable-source-maps',
      // Links in e-mails point at the API itself unless a public origin is given.
      PUBLIC_BASE_URL: api.apiEndpoint,
      ...settings.functionEnvironment,
    };

    // Developer tools of the local runtime (localOnly) get no Lambda and no API route.
    this.routeGroups = [...groupRoutes(routesOnAws(routes))].map(([group, groupRoutes]) => {
      const stack = new RouteGroupStack(this, group, {
        routes: groupRoutes,
        api,
        table,
        shared,
        environment,
        jwtHs256SecretArn: settings.jwtHs256SecretArn,
        deletionProtection: settings.deletionProtection,
        detachRoutes: settings.detachRoutes,
      });
      // The stage's RouteSettings name the ingest routes by key: CloudFormation must create those routes first.
      if (groupRoutes.some((route) => route.ingest)) stage.node.addDependency(stack);
      return stack;
    });

    // Requests no route takes: 405 + Allow for a known path, the 404 envelope otherwise.
    new FallbackFunction(this, 'Unmatched', { api, deletionProtection: settings.deletionProtection });

    this.engine = new EngineStack(this, 'EngineFunctions', {
      queueFunctions: queueTable,
      table,
      shared,
      // The broadcast pacer shares SES's account rate between clients (shared/domain/broadcasts/engine/pacer.ts).
      environment: { ...environment, SES_MAX_SEND_RATE: String(settings.queueConcurrency.sesMaxSendRate) },
      deletionProtection: settings.deletionProtection,
    });

    // Operators hear about failures: the alarms beside the DLQs' own, the dashboard, and every alarm of every stack
    // sending to the on-call topic — wired last, so no alarm is left out. The topic stays in the root: its
    // subscriptions (confirmed by their owners) survive any change to the nested stacks.
    this.operations = new OperationsStack(this, 'Operations', { api, shared, engine: this.engine, app: this });
    const onCall = new OnCall(this, 'OnCall', { email: settings.onCallEmail });
    onCall.notifyOnAlarmsIn(this);

    new CfnOutput(this, 'ApiUrl', {
      description: 'Base URL of the API',
      // The $default stage is served at the API endpoint itself.
      value: `${api.apiEndpoint}${API_BASE_PATH}`,
    });
    new CfnOutput(this, 'TableName', {
      description: 'DynamoDB table (TABLE_NAME for the admin CLI)',
      value: table.tableName,
    });
    new CfnOutput(this, 'SesConfigurationSet', {
      description: 'SES configuration set every e-mail is sent with (SES_CONFIGURATION_SET)',
      value: shared.mail.configurationSet.configurationSetName,
    });
    new CfnOutput(this, 'SesTenantPrefix', {
      description:
        'Prefix of the SES tenants this deployment creates, one per client (SES_TENANT_PREFIX for the admin CLI)',
      value: shared.mail.tenantPrefix,
    });
    new CfnOutput(this, 'OnCallTopic', {
      description: 'SNS topic every alarm sends to: subscribe a pager, chat or more addresses',
      value: onCall.topic.topicArn,
    });
  }
}
