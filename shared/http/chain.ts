import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as z from '../validation/zod.js';
import { getContainer, type DepsOf, type Provider } from '../composition/container.js';
import type { Principal } from '../domain/auth/authenticate.js';
import { logger } from '../logger.js';
import { successResponse, type ApiResult } from './envelope.js';
import { ipRateLimiter } from '../composition/providers/ip-rate-limiter.js';
import { errorHandler } from './middleware/error-handler.js';
import { anonymousIpLimit, failedCredentialIpLimit } from './middleware/ip-limit.js';
import { jsonBody } from './middleware/json-body.js';
import { parseInput, type InputSchemas } from './middleware/parse-input.js';
import { requestContext } from './middleware/request-context.js';
import type { ApiContext, ApiMiddleware } from './middleware/types.js';

type Out<T> = T extends z.ZodMiniType ? z.output<T> : undefined;

export interface RouteInput<S extends InputSchemas> {
  params: Out<S['params']>;
  query: Out<S['query']>;
  body: Out<S['body']>;
}

/** The providers a route lists: its `deps` hold exactly those ports (plus config and the request counter). */
export type RoutePorts = readonly Provider<any>[];

export interface RouteContext<P extends RoutePorts = RoutePorts> {
  deps: DepsOf<P>;
  requestId: string;
  event: APIGatewayProxyEventV2;
}

export type LambdaHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

export interface ChainOptions {
  /** Runs after the request context and error handler, before the body is read (authentication). */
  guard?: ApiMiddleware;
  /** Runs right after the guard: the client's rate limit (it needs the principal the guard found). */
  limit?: ApiMiddleware;
  /** How the body arrives: JSON (parsed + validated), or left raw for the route (multipart uploads). */
  body: 'json' | 'raw';
}

/**
 * The middy chain every HTTP route runs: request id, error envelope, header normalisation, the guard, JSON body,
 * zod-validated input; then `run` with the route's ports from the container and the result in the envelope.
 */
export function chain<P extends RoutePorts>(
  schemas: InputSchemas,
  ports: P,
  options: ChainOptions,
  run: (input: unknown, ctx: RouteContext<P> & { principal?: Principal }) => Promise<ApiResult>,
): LambdaHandler {
  const middlewares: ApiMiddleware[] = [
    requestContext(),
    errorHandler(),
    httpHeaderNormalizer() as unknown as ApiMiddleware,
  ];
  // Requests no client answers for are limited per IP (ip-limit.ts): every one on a route without a guard, only
  // those whose credential fails on a route with one, so a client's own requests never pay for it.
  const ipLimiter = () => getContainer().use(ipRateLimiter);
  if (options.guard) middlewares.push(failedCredentialIpLimit(ipLimiter), options.guard);
  else middlewares.push(anonymousIpLimit(ipLimiter));
  if (options.limit) middlewares.push(options.limit);
  // Every JSON route parses a body it is sent, even one it ignores: a body that is not a JSON object is a 400 there too.
  if (options.body === 'json') middlewares.push(jsonBody());
  middlewares.push(parseInput(schemas));

  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>()
    .use(injectLambdaContext(logger) as unknown as ApiMiddleware)
    .use(middlewares)
    .handler(async (event, context) => {
      const state = context.api;
      const result = await run(state.input, {
        // Resolved per request from the current container (built once, then cached there).
        deps: getContainer().resolve(ports),
        requestId: state.requestId,
        event,
        principal: state.principal,
      });
      return successResponse(
        state.headers ? { ...result, headers: { ...state.headers, ...result.headers } } : result,
        state.requestId,
      );
    });
  return withoutBodyForHead(handler as unknown as LambdaHandler);
}

/**
 * HEAD (a GET route's HEAD route, infra/route-function.ts) answers the GET's status and headers with no body, whatever
 * the outcome: success, error envelope or page.
 */
export function withoutBodyForHead(handler: LambdaHandler): LambdaHandler {
  return async (event, context) => {
    const result = await handler(event, context);
    if (event.requestContext?.http?.method !== 'HEAD') return result;
    const { body: _body, isBase64Encoded: _encoded, ...rest } = result;
    return rest;
  };
}
