import { publicPage } from '../../shared/http/public-page.js';
import * as z from '../../shared/validation/zod.js';
import { API_BASE_PATH } from '../routes.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { sessionStore } from '../../shared/composition/providers/session-store.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { completeSignIn } from '../../shared/domain/auth/sign-in.js';
import { signInLinkInvalidPage } from '../../shared/domain/auth/sign-in-pages.js';
import { sessionCookies } from '../../shared/domain/auth/session-tokens.js';

/** Where the dashboard lives (its own issue): the callback sends the signed-in browser there. */
const DASHBOARD_PATH = '/app';

/** GET /auth/callback?token= — consumes the one-time link, starts a session (cookies) and redirects to the dashboard. */
export const handler = publicPage(
  {
    summary: 'Sign in with a link',
    description:
      'Extra (issue 23): the link of the sign-in e-mail. Consumes it (once) and starts a session: `els_session` ' +
      '(HttpOnly, SameSite=Lax, Secure over https, Path=/api/v1; ends after 12 h idle or 7 days) and `els_csrf` (readable, ' +
      'Path=/: echo it in `X-CSRF-Token` on every POST, PATCH or DELETE made with the session), then redirects to /app. ' +
      'A used, expired, unknown or malformed link answers one page, 400.',
    tags: ['Sign-in'],
    query: z.object({ token: z.optional(z.string().check(z.meta({ description: 'The one-time token of the link' }))) }),
    pages: { 302: 'Signed in: a redirect to /app with the session cookies', 400: 'The link cannot be used (used, expired or not valid)' },
  },
  [userStore, sessionStore, clock],
  async ({ query }, { deps, event }) => {
    const started = await completeSignIn(deps, query.token);
    if (!started) return { status: 400 as const, html: signInLinkInvalidPage(`${deps.config.PUBLIC_BASE_URL}${DASHBOARD_PATH}`) };
    const secure = event.headers?.['x-forwarded-proto'] === 'https';
    return {
      status: 302 as const,
      html: '<!DOCTYPE html><title>Signed in</title><a href="/app">Continue</a>',
      headers: { location: DASHBOARD_PATH },
      cookies: sessionCookies(started.sessionId, started.csrfToken, { secure, apiPath: API_BASE_PATH }),
    };
  },
);
