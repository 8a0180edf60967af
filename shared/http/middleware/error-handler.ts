import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { AppError } from '../../errors.js';
import { logger } from '../../logger.js';
import { errorResponse } from '../envelope.js';
import type { ApiMiddleware } from './types.js';

/**
 * The one place errors become responses: an AppError shows its status and items; anything else is a 500
 * that shows the request id only (the cause goes to the log, not to the caller).
 */
export function errorHandler(): ApiMiddleware {
  return {
    onError: async (request) => {
      const error = request.error;
      const requestId = request.context.api?.requestId ?? request.context.awsRequestId ?? 'unknown';
      const headers = request.context.api?.headers;
      if (error instanceof AppError) {
        request.response = withHeaders(errorResponse(error.status, error.items, error.message, requestId), headers);
        return;
      }
      logger.error('unhandled error', { error: error as Error });
      request.response = withHeaders(
        errorResponse(
          500,
          [
            {
              condition: 'internal',
              error: 'An internal error occurred; quote the request id to support',
              key: 'request',
            },
          ],
          'Internal server error',
          requestId,
        ),
        headers,
      );
    },
  };
}

function withHeaders(
  response: APIGatewayProxyStructuredResultV2,
  headers: Record<string, string> | undefined,
): APIGatewayProxyStructuredResultV2 {
  return headers ? { ...response, headers: { ...response.headers, ...headers } } : response;
}
