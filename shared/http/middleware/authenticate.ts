import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Authenticator } from '../../domain/auth/authenticate.js';
import { authorize } from '../../domain/auth/route-access.js';
import { cookieValue, CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from '../../domain/auth/session-tokens.js';
import { logger } from '../../logger.js';
import { formBodyOf } from '../form-fields.js';
import type { ApiMiddleware } from './types.js';

/**
 * Resolves `Authorization` (or, without it, the dashboard's session cookie) to the calling client, then refuses what
 * that caller may not do on this route (roles, session-only routes, CSRF: shared/domain/auth/route-access.ts; with
 * `csrfFormField`, an authenticated page's form may carry the CSRF token as that field);
 * 401/403 errors flow to the error handler.
 */
export function authenticate(
  getAuthenticator: () => Authenticator,
  options: { csrfFormField?: string } = {},
): ApiMiddleware {
  return {
    before: async (request) => {
      const { event } = request;
      const headers = event.headers ?? {};
      const principal = await getAuthenticator().authenticateRequest({
        authorization: headers['authorization'],
        sessionId: cookieValue(event.cookies, headers['cookie'], SESSION_COOKIE),
      });
      request.context.api.principal = principal;
      logger.appendKeys({ client_id: principal.clientId });
      authorize(principal, {
        ...routeOf(event),
        // A page's form (`csrfFormField`) carries the token as a field; the header, when sent, is what counts.
        csrfHeader:
          headers[CSRF_HEADER] ??
          (options.csrfFormField ? (formBodyOf(event)?.get(options.csrfFormField) ?? undefined) : undefined),
        csrfCookie: cookieValue(event.cookies, headers['cookie'], CSRF_COOKIE),
      });
    },
  };
}

/** The route's method and path below the API base: from `routeKey` (`PATCH /api/v1/client/users/{id}`), else the request. */
function routeOf(event: APIGatewayProxyEventV2): { method: string; path: string } {
  const [method, path] =
    event.routeKey && event.routeKey.includes(' ')
      ? event.routeKey.split(' ', 2)
      : [event.requestContext?.http?.method ?? 'GET', event.rawPath ?? '/'];
  return { method: method!.toUpperCase(), path: path!.replace(/^\/api\/v1(?=\/)/, '') };
}
