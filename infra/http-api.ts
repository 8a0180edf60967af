import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  type CfnStage,
  CorsHttpMethod,
  HttpApi,
  HttpStage,
  LogGroupLogDestination,
  type CorsPreflightOptions,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { routeKey, routes } from '../functions/routes.js';
import type { CorsPolicy } from '../shared/http/cors.js';
import { routesOnAws } from './route-function.js';
import type { StackSettings } from './stack-settings.js';

export interface HttpApiWithStage {
  api: HttpApi;
  /** The `$default` stage: auto-deployed, access-logged and throttled. */
  stage: HttpStage;
}

/**
 * HTTP API $context variables written as one JSON line per request. The route key (`GET /u/{token}`), never the
 * path: the public links' paths carry their tokens, which do not expire and must not sit in the logs.
 */
const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  httpMethod: '$context.httpMethod',
  routeKey: '$context.routeKey',
  protocol: '$context.protocol',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationStatus: '$context.integration.status',
  integrationLatency: '$context.integration.latency',
  integrationError: '$context.integration.error',
  error: '$context.error.message',
};

/**
 * The HTTP API with its own `$default` stage (instead of `createDefaultStage`) so the stage can carry
 * access logging and throttling. Routes are added by the caller from functions/routes.ts.
 */
export function createHttpApi(
  scope: Construct,
  settings: Pick<StackSettings, 'deletionProtection' | 'throttle' | 'ingestThrottle' | 'cors' | 'detachRoutes'>,
): HttpApiWithStage {
  const api = new HttpApi(scope, 'HttpApi', {
    description: 'Email lifecycle API (routes from functions/routes.ts)',
    createDefaultStage: false,
    ...(settings.cors ? { corsPreflight: corsPreflightOf(settings.cors) } : {}),
  });
  const accessLogs = new LogGroup(scope, 'HttpApiAccessLogs', {
    retention: RetentionDays.ONE_MONTH,
    removalPolicy: settings.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
  });
  const stage = new HttpStage(scope, 'DefaultStage', {
    httpApi: api,
    stageName: '$default',
    autoDeploy: true,
    throttle: settings.throttle,
    accessLogSettings: {
      destination: new LogGroupLogDestination(accessLogs),
      format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
    },
  });
  // Route-level settings are a property of the stage the L2 construct does not expose (CfnStage RouteSettings).
  // Without its routes (detachRoutes), a stage naming them would be refused.
  (stage.node.defaultChild as CfnStage).routeSettings = settings.detachRoutes
    ? {}
    : ingestRouteSettings(settings.ingestThrottle);
  return { api, stage };
}

/** CloudFormation's RouteSettings entry as written into the template (the property is untyped JSON in the L1). */
interface RouteSettingsJson {
  ThrottlingRateLimit: number;
  ThrottlingBurstLimit: number;
}

/**
 * Each ingest route of functions/routes.ts gets its own throttle: a client's burst of events or imports is held at
 * the gateway by that route's limit, and leaves the stage's budget to the rest of the API (per-client limits inside
 * the functions keep one client from taking a whole route's share).
 */
export function ingestRouteSettings(throttle: StackSettings['ingestThrottle']): Record<string, RouteSettingsJson> {
  return Object.fromEntries(
    routesOnAws(routes)
      .filter((route) => route.ingest)
      .map((route) => [
        routeKey(route),
        { ThrottlingRateLimit: throttle.rateLimit, ThrottlingBurstLimit: throttle.burstLimit },
      ]),
  );
}

/** The shared CORS policy (shared/http/cors.ts, also the local server's) as API Gateway's preflight configuration. */
export function corsPreflightOf(policy: CorsPolicy): CorsPreflightOptions {
  return {
    allowOrigins: policy.allowOrigins,
    allowMethods: policy.allowMethods.map((method) => CorsHttpMethod[method as keyof typeof CorsHttpMethod]),
    allowHeaders: policy.allowHeaders,
    exposeHeaders: policy.exposeHeaders,
    maxAge: Duration.seconds(policy.maxAgeSeconds),
  };
}
