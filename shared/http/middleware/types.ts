import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Principal } from '../../domain/auth/authenticate.js';

/** State the middlewares hand to each other and to the route function. */
export interface ApiState {
  requestId: string;
  startedAt: number;
  principal?: Principal;
  input: { params?: unknown; query?: unknown; body?: unknown };
  /** Headers a middleware adds to whatever the request answers, success or error (the RateLimit fields). */
  headers?: Record<string, string>;
}

export type ApiContext = Context & { api: ApiState };
export type ApiRequest = Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>;
export type ApiMiddleware = MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>;
