import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { queueFunctions } from '../functions/queues.js';
import { API_BASE_PATH, routes } from '../functions/routes.js';
import { scheduledFunctions } from '../functions/scheduled.js';
import { EngineAlarms } from './alarms.js';
import { createDataTable } from './data-table.js';
import { Engine } from './engine.js';
import { EngineDashboard } from './engine-dashboard.js';
import { FallbackFunction } from './fallback-function.js';
import { createHttpApi } from './http-api.js';
import { constructIdOf } from './node-function.js';
import { alarmsIn, OnCall } from './on-call.js';
import { sizeQueueFunctions } from './queue-concurrency.js';
import { addQueueFunctions } from './queue-function.js';
import { RouteFunction, routesOnAws } from './route-function.js';
import { RouteRoles } from './route-roles.js';
import { ScheduledFunction } from './scheduled-function.js';
import { StreamFunction } from './stream-function.js';
import { streamFunctions } from '../functions/streams.js';
import type { StackSettings } from './stack-settings.js';

export interface EmailLifecycleStackProps extends StackProps {
  settings: StackSettings;
}

/**
 * The whole service in one stack: the table, the HTTP API, the engine (a queue + DLQ per entry of
 * functions/queues.ts, the Scheduler group and role, the SES configuration set and its status events, the link
 * secret), and one Lambda per entry of functions/routes.ts (but the local-only ones), functions/queues.ts (each
 * mapping bounded: infra/queue-concurrency.ts) and functions/scheduled.ts, each granted what its entry names and
 * nothing more; then the operators' side: the alarms, the engine's dashboard and the on-call topic every alarm sends to.
 */
export class EmailLifecycleStack extends Stack {
  constructor(scope: Construct, id: string, props: EmailLifecycleStackProps) {
    super(scope, id, props);
    const { settings } = props;

    const table = createDataTable(this, { deletionProtection: settings.deletionProtection });
    const { api, stage } = createHttpApi(this, settings);
    // The queue table as built on AWS: every mapping with a maximum concurrency, the senders sized to SES's rate.
    const queueTable = sizeQueueFunctions(queueFunctions, settings.queueConcurrency);
    const engine = new Engine(this, 'Engine', {
      queueFunctions: queueTable,
      deletionProtection: settings.deletionProtection,
      senderEnvironment: settings.senderEnvironment,
    });

    const environment = {
      TABLE_NAME: table.tableName,
      POWERTOOLS_SERVICE_NAME: 'email-lifecycle',
      NODE_OPTIONS: '--enable-source-maps',
      // Links in e-mails point at the API itself unless a public origin is given.
      PUBLIC_BASE_URL: api.apiEndpoint,
      ...settings.functionEnvironment,
    };
    // The operator's HS256 JWT key, if any (JWKS is the recommended way): imported by its complete ARN, so each policy
    // names exactly that secret; the routes that authenticate read it at run time.
    const jwtSecret = settings.jwtHs256SecretArn
      ? Secret.fromSecretCompleteArn(this, 'JwtHs256Secret', settings.jwtHs256SecretArn)
      : undefined;
    // One log group for the HTTP route functions (their lines carry function_name); the queue, stream and scheduled
    // functions keep their own (metric filters count their lines).
    const routeLogs = new LogGroup(this, 'RouteLogs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: settings.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    const routeRoles = new RouteRoles(this, 'RouteRoles', { jwtSecret: jwtSecret !== undefined });
    // Developer tools of the local runtime (localOnly) get no Lambda and no API route.
    for (const route of routesOnAws(routes)) {
      const routeFunction = new RouteFunction(this, constructIdOf(route.handler), {
        route,
        api,
        table,
        engine,
        environment,
        jwtSecret,
        logGroup: routeLogs,
        roles: routeRoles,
        deletionProtection: settings.deletionProtection,
      });
      // The stage's RouteSettings name the ingest routes by key: CloudFormation must create those routes first.
      if (route.ingest) stage.node.addDependency(routeFunction);
    }

    // Requests no route takes: 405 + Allow for a known path, the 404 envelope otherwise.
    new FallbackFunction(this, 'Unmatched', { api, deletionProtection: settings.deletionProtection });

    const consumers = addQueueFunctions(this, {
      queueFunctions: queueTable,
      engine,
      table,
      environment,
      deletionProtection: settings.deletionProtection,
    });

    const scheduled = scheduledFunctions.map(
      (definition) =>
        new ScheduledFunction(this, constructIdOf(definition.handler), {
          definition,
          engine,
          table,
          environment,
          deletionProtection: settings.deletionProtection,
        }),
    );

    // The table's change stream → webhook facts (issue 22 §3).
    const streams = streamFunctions.map(
      (definition) =>
        new StreamFunction(this, constructIdOf(definition.handler), {
        definition,
        engine,
        table,
          environment,
          deletionProtection: settings.deletionProtection,
        }),
    );

    // Operators hear about failures (issue 19 §3): the alarms beside the DLQs' own, the dashboard, and every alarm of
    // the stack sending to the on-call topic — wired last, so no alarm is left out.
    const background = { api, engine, consumers: [...consumers.values()], scheduled };
    const alarms = new EngineAlarms(this, 'Alarms', { ...background, streams });
    new EngineDashboard(this, 'Dashboard', { ...background, alarms, allAlarms: alarmsIn(this) });
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
      value: engine.mail.configurationSet.configurationSetName,
    });
    new CfnOutput(this, 'OnCallTopic', {
      description: 'SNS topic every alarm sends to: subscribe a pager, chat or more addresses',
      value: onCall.topic.topicArn,
    });
  }
}
