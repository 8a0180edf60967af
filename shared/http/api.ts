import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import { getDeps, type Deps } from '../composition.js';
import type { Principal } from '../domain/auth/authenticate.js';
import { logger } from '../logger.js';
import { successResponse, type ApiResult } from './envelope.js';
import { authenticate } from './middleware/authenticate.js';
import { errorHandler } from './middleware/error-handler.js';
import { jsonBody } from './middleware/json-body.js';
import { parseInput, type InputSchemas } from './middleware/parse-input.js';
import { requestContext } from './middleware/request-context.js';
import type { ApiContext, ApiMiddleware } from './middleware/types.js';

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface RouteInput<S extends InputSchemas> {
  params: Out<S['params']>;
  query: Out<S['query']>;
  body: Out<S['body']>;
}

export interface RouteContext {
  deps: Deps;
  requestId: string;
  event: APIGatewayProxyEventV2;
}

export interface AuthedRouteContext extends RouteContext {
  principal: Principal;
  clientId: number;
}

export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

interface ChainOptions {
  auth: boolean;
  /** How the body arrives: JSON (parsed + validated), or left raw for the route (multipart uploads). */
  body: 'json' | 'raw';
}

function chain(
  schemas: InputSchemas,
  options: ChainOptions,
  run: (input: unknown, ctx: RouteContext & { principal?: Principal }) => Promise<ApiResult>,
): LambdaHandler {
  const middlewares: ApiMiddleware[] = [
    requestContext(),
    errorHandler(),
    httpHeaderNormalizer() as unknown as ApiMiddleware,
  ];
  if (options.auth) middlewares.push(authenticate(() => getDeps().authenticator));
  // Every JSON route parses a body it is sent, even one it ignores: a body that is not a JSON object is a 400 there too.
  if (options.body === 'json') middlewares.push(jsonBody());
  middlewares.push(parseInput(schemas));

  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>()
    .use(injectLambdaContext(logger) as unknown as ApiMiddleware)
    .use(middlewares)
    .handler(async (event, context) => {
      const state = context.api;
      const result = await run(state.input, {
        deps: getDeps(),
        requestId: state.requestId,
        event,
        principal: state.principal,
      });
      return successResponse(result, state.requestId);
    });
  return handler as unknown as LambdaHandler;
}

/**
 * A JSON route behind authentication: `jsonApi(schemas, async (input, ctx) => ok(await domainCall(...)))`.
 * The chain normalises headers, authenticates, parses the JSON body, validates path/query/body with zod and
 * maps every error to the envelope.
 */
export function jsonApi<S extends InputSchemas>(
  schemas: S,
  fn: (input: RouteInput<S>, ctx: AuthedRouteContext) => Promise<ApiResult>,
): LambdaHandler {
  return chain(schemas, { auth: true, body: 'json' }, (input, ctx) =>
    fn(input as RouteInput<S>, { ...ctx, principal: ctx.principal!, clientId: ctx.principal!.clientId }),
  );
}

/** An authenticated route whose body the route reads itself (multipart uploads). */
export function rawBodyApi<S extends InputSchemas>(
  schemas: S,
  fn: (input: RouteInput<S>, ctx: AuthedRouteContext) => Promise<ApiResult>,
): LambdaHandler {
  return chain(schemas, { auth: true, body: 'raw' }, (input, ctx) =>
    fn(input as RouteInput<S>, { ...ctx, principal: ctx.principal!, clientId: ctx.principal!.clientId }),
  );
}

/** A route without authentication (health). */
export function publicApi<S extends InputSchemas>(
  schemas: S,
  fn: (input: RouteInput<S>, ctx: RouteContext) => Promise<ApiResult>,
): LambdaHandler {
  return chain(schemas, { auth: false, body: 'json' }, (input, ctx) => fn(input as RouteInput<S>, ctx));
}
