import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import * as z from '../../shared/validation/zod.js';
import { API_BASE_PATH } from '../routes.js';
import { sessionStore } from '../../shared/composition/providers/session-store.js';
import { sessionOf } from '../../shared/domain/auth/session-user.js';
import { clearedSessionCookies } from '../../shared/domain/auth/session-tokens.js';

/** POST /auth/sign-out — ends the session at once (everywhere: the session is read on every request) and clears the cookies. */
export const handler = jsonApi(
  {
    summary: 'Sign out',
    description: 'Extra: ends the session now and expires its cookies. A session request: it needs `X-CSRF-Token`.',
    tags: ['Sign-in'],
    responses: { 200: z.object({}) },
  },
  [sessionStore],
  async (_input, { deps, principal, event }) => {
    await deps.sessions.end(sessionOf(principal));
    const secure = event.headers?.['x-forwarded-proto'] === 'https';
    return { ...ok({}, 'Signed out'), cookies: clearedSessionCookies({ secure, apiPath: API_BASE_PATH }) };
  },
);
