import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { Router, unmatchedResponse } from '../../shared/http/route-matcher.js';
import { API_BASE_PATH, routes } from '../routes.js';

/** The routes API Gateway serves (the local runtime's developer tools excepted, as infra builds them). */
const router = new Router(
  routes.filter((route) => !route.localOnly),
  { basePath: API_BASE_PATH },
);

/**
 * The HTTP API's `$default` route: every request no route of functions/routes.ts takes. A known path with another
 * method is 405 with `Allow`, anything else the 404 envelope (instead of API Gateway's bare `{"message":"Not Found"}`).
 * It reads nothing and touches nothing: the route table is in the bundle. (CORS preflights never get here: API
 * Gateway answers them when `corsOrigins` is set.)
 */
export async function handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  const method = event.requestContext.http.method.toUpperCase();
  const path = event.rawPath;
  const match = router.match(method, path);
  const requestId = event.requestContext.requestId;
  // API Gateway sends here only what no route took; should the table's matcher still find a route (a path API Gateway
  // reads differently), it is not run outside its own function and role: the path is answered as unknown.
  const reply =
    match.kind === 'method_not_allowed'
      ? unmatchedResponse(match, method, path, requestId)
      : unmatchedResponse({ kind: 'not_found' }, method, path, requestId);
  return method === 'HEAD' ? { statusCode: reply.statusCode, headers: reply.headers } : reply;
}
