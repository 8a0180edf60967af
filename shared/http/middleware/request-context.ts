import { logger } from '../../logger.js';
import type { ApiMiddleware } from './types.js';

/** Stamps the request id on the logger and the shared state, and writes one access log line per request. */
export function requestContext(): ApiMiddleware {
  const logAccess: ApiMiddleware['after'] = async (request) => {
    const state = request.context.api;
    logger.info('request completed', {
      method: request.event.requestContext?.http?.method,
      route: request.event.routeKey,
      status: request.response?.statusCode,
      duration_ms: Date.now() - state.startedAt,
    });
  };
  return {
    before: async (request) => {
      const requestId = request.event.requestContext?.requestId ?? request.context.awsRequestId;
      request.context.api = { requestId, startedAt: Date.now(), input: {} };
      logger.removeKeys(['client_id']);
      logger.appendKeys({ request_id: requestId });
    },
    after: logAccess,
    onError: logAccess,
  };
}
