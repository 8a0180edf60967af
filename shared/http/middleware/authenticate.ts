import type { Authenticator } from '../../domain/auth/authenticate.js';
import { logger } from '../../logger.js';
import type { ApiMiddleware } from './types.js';

/** Resolves `Authorization` to the calling client; 401/403 errors flow to the error handler. */
export function authenticate(getAuthenticator: () => Authenticator): ApiMiddleware {
  return {
    before: async (request) => {
      const principal = await getAuthenticator().authenticate(request.event.headers?.['authorization']);
      request.context.api.principal = principal;
      logger.appendKeys({ client_id: principal.clientId });
    },
  };
}
