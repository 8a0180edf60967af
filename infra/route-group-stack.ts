import { NestedStack, RemovalPolicy } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { RouteDefinition } from '../shared/http/route-definition.js';
import { constructIdOf } from './node-function.js';
import { RouteFunction } from './route-function.js';
import { RouteRoles } from './route-roles.js';
import type { SharedResources } from './shared-resources.js';

export interface RouteGroupStackProps {
  /** The routes of one area (infra/route-groups.ts). */
  routes: readonly RouteDefinition[];
  api: HttpApi;
  table: TableV2;
  shared: SharedResources;
  /** Environment shared by every HTTP function (TABLE_NAME, JWT settings, …). */
  environment: Record<string, string>;
  /** The operator's HS256 JWT key's complete ARN (context `jwtHs256SecretArn`), if any. */
  jwtHs256SecretArn?: string;
  deletionProtection: boolean;
  /** The functions without their API Gateway routes (context `detachRoutes`, docs/stacks.md). */
  detachRoutes: boolean;
}

/**
 * One area of the API as a nested stack: a Lambda per route with its API Gateway routes and invoke permission, the
 * roles its routes need (one per distinct set of needs) and one log group for the area's functions (their lines carry
 * function_name). The API, the table and the shared resources come from the root stack as parameters.
 */
export class RouteGroupStack extends NestedStack {
  readonly functions: RouteFunction[];

  constructor(scope: Construct, id: string, props: RouteGroupStackProps) {
    super(scope, id, { description: `Email lifecycle: HTTP routes, ${id} (${props.routes.length} routes)` });
    // Imported by its complete ARN, so each policy names exactly that secret; the routes that authenticate read it at
    // run time.
    const jwtSecret = props.jwtHs256SecretArn
      ? Secret.fromSecretCompleteArn(this, 'JwtHs256Secret', props.jwtHs256SecretArn)
      : undefined;
    const logGroup = new LogGroup(this, 'RouteLogs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: props.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    const roles = new RouteRoles(this, 'RouteRoles', { jwtSecret: jwtSecret !== undefined });
    this.functions = props.routes.map(
      (route) =>
        new RouteFunction(this, constructIdOf(route.handler), {
          route,
          api: props.api,
          table: props.table,
          shared: props.shared,
          environment: props.environment,
          jwtSecret,
          logGroup,
          roles,
          deletionProtection: props.deletionProtection,
          detached: props.detachRoutes,
        }),
    );
  }
}
