import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { HttpMethod as ApiMethod, HttpRoute, HttpRouteKey, type HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { API_BASE_PATH, type RouteDefinition } from '../functions/routes.js';
import { tableIndexWildcardFinding } from './nag.js';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

// The bundle is ESM; CommonJS dependencies that call require() need one defined at the top of the module.
const ESM_REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

export interface RouteFunctionProps {
  route: RouteDefinition;
  api: HttpApi;
  table: TableV2;
  /** Environment shared by every HTTP function (TABLE_NAME, JWT settings, …). */
  environment: Record<string, string>;
  deletionProtection: boolean;
}

/** One route of functions/routes.ts: its Lambda, log group, least-privilege role and API Gateway route. */
export class RouteFunction extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: RouteFunctionProps) {
    super(scope, id);
    const { route } = props;

    const logGroup = new LogGroup(this, 'Logs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: props.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    // Own role instead of AWSLambdaBasicExecutionRole: it may write to its own log group and nothing else.
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `${route.method} ${API_BASE_PATH}${route.path}`,
    });
    logGroup.grantWrite(role);

    this.function = new NodejsFunction(this, 'Function', {
      description: `${route.method} ${API_BASE_PATH}${route.path}`,
      entry: path.join(PROJECT_ROOT, 'functions', 'http', `${route.handler}.ts`),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      timeout: Duration.seconds(route.timeoutSeconds ?? 10),
      memorySize: route.memoryMb ?? 512,
      role,
      logGroup,
      environment: props.environment,
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_BANNER,
        minify: true,
        sourceMap: true,
      },
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Node.js 22 is pinned on purpose (DESIGN.md §1/§3): the bundle targets node22 and the same code runs ' +
        'on the Node 20/22 local runtime; moving to a newer Lambda runtime is a deliberate, tested upgrade.',
    });

    if (route.tableAccess === 'read') props.table.grantReadData(this.function);
    else props.table.grantReadWriteData(this.function);
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[${tableIndexWildcardFinding(props.table)}]`,
      reason:
        'grantReadData/grantReadWriteData add `<table arn>/index/*` so the function can Query gsi1 (and ' +
        'indexes added later); the wildcard only spans the indexes of this one table.',
    });

    const apiRoute = new HttpRoute(this, 'Route', {
      httpApi: props.api,
      routeKey: HttpRouteKey.with(`${API_BASE_PATH}${route.path}`, ApiMethod[route.method]),
      integration: new HttpLambdaIntegration('Integration', this.function),
    });
    Validations.of(apiRoute).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Authentication is done by the handler middleware (API key hashed and looked up in the table, or JWT; ' +
        'DESIGN.md §5) so the same code serves the local runtime and the tests; an API Gateway authorizer ' +
        'would duplicate it. /health is public by design.',
    });
  }
}
