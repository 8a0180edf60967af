import { Validations } from 'aws-cdk-lib';
import { HttpMethod as ApiMethod, HttpRoute, HttpRouteKey, type HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { RouteRoles } from './route-roles.js';
import { authenticates, fullPath, type RouteDefinition } from '../functions/routes.js';
import type { SharedResources } from './shared-resources.js';
import { createNodeFunction, entryOf, grantTableAccess } from './node-function.js';
import { grantSecretRead } from './secret-read.js';
import { RATE_COUNTER_KEY_PATTERNS } from '../shared/adapters/dynamo/keys.js';

/** The routes built on AWS: every entry of the route table but those the local runtime alone serves (`localOnly`). */
export const routesOnAws = (table: readonly RouteDefinition[]): RouteDefinition[] =>
  table.filter((route) => !route.localOnly);

export interface RouteFunctionProps {
  route: RouteDefinition;
  api: HttpApi;
  table: TableV2;
  /** Grants the sends, schedules and link secret the route's entry names. */
  shared: SharedResources;
  /** Environment shared by every HTTP function (TABLE_NAME, JWT settings, …). */
  environment: Record<string, string>;
  /** The log group every HTTP route function writes to. */
  logGroup: ILogGroup;
  /** The roles shared by routes of the same needs. */
  roles: RouteRoles;
  /** The HS256 JWT key's secret (context `jwtHs256SecretArn`): read at run time by the routes that authenticate. */
  jwtSecret?: ISecret;
  deletionProtection: boolean;
  /** Build the function without its API Gateway routes (context `detachRoutes`, docs/stacks.md). */
  detached?: boolean;
}

/**
 * One route of functions/routes.ts: its Lambda, log group, least-privilege role (table access, the queues, schedules
 * and link secret its entry names, the JWT secret if it authenticates) and API Gateway route.
 */
export class RouteFunction extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: RouteFunctionProps) {
    super(scope, id);
    const { route } = props;

    this.function = createNodeFunction(this, {
      entry: entryOf('http', route.handler),
      description: `${route.method} ${fullPath(route)}`,
      timeoutSeconds: route.timeoutSeconds ?? 10,
      memoryMb: route.memoryMb ?? 512,
      environment: props.environment,
      deletionProtection: props.deletionProtection,
      staticFiles: route.staticFiles,
      logGroup: props.logGroup,
      role: props.roles.roleFor(route),
    });
    grantTableAccess(this.function, props.table, route.tableAccess);
    // Every route counts requests (the client's limit, or the caller's IP where no client answers): a read-only route
    // may update the counter items and nothing else. Without it the counters' writes were refused on AWS and the
    // limits failed open on every read route.
    if (route.tableAccess === 'read') {
      this.function.addToRolePolicy(
        new PolicyStatement({
          actions: ['dynamodb:UpdateItem'],
          resources: [props.table.tableArn],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...RATE_COUNTER_KEY_PATTERNS] } },
        }),
      );
    }
    props.shared.connect(this.function, route.handler, route);
    if (props.jwtSecret && authenticates(route))
      grantSecretRead(this.function, props.jwtSecret, 'JWT_HS256_SECRET_ARN');
    if (props.detached) return;

    // One invoke permission per function for this API (not one per route: a GET route has a HEAD route beside it),
    // which keeps the stack under CloudFormation's 500 resources; the function is integrated with its own routes only.
    const integration = new HttpLambdaIntegration('Integration', this.function, { scopePermissionToRoute: false });
    // A GET route also takes HEAD (HTTP APIs do not map one to the other); the handler answers it without a body.
    const methods = route.method === 'GET' ? [ApiMethod.GET, ApiMethod.HEAD] : [ApiMethod[route.method]];
    for (const method of methods) {
      const apiRoute = new HttpRoute(this, method === ApiMethod.HEAD ? 'HeadRoute' : 'Route', {
        httpApi: props.api,
        routeKey: HttpRouteKey.with(fullPath(route), method),
        integration,
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
}
