import { formFieldsOf } from '../../shared/http/form-fields.js';
import { publicPage, type PageResult } from '../../shared/http/public-page.js';
import * as z from '../../shared/validation/zod.js';
import { API_BASE_PATH } from '../routes.js';
import { clientStore } from '../../shared/composition/providers/client-store.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { sessionStore } from '../../shared/composition/providers/session-store.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { isSameOriginPost } from '../../shared/domain/auth/same-origin-post.js';
import { completeSignIn, readSignInLink } from '../../shared/domain/auth/sign-in.js';
import { clearedSignInBindingCookie, SIGN_IN_BINDING_COOKIE } from '../../shared/domain/auth/sign-in-binding.js';
import {
  CONFIRM_FIELD,
  CONFIRM_VALUE,
  SIGN_IN_PAGE_CSP,
  signInConfirmPage,
  signInCrossSitePage,
  signInLinkInvalidPage,
} from '../../shared/domain/auth/sign-in-pages.js';
import { cookieValue, sessionCookies } from '../../shared/domain/auth/session-tokens.js';
import { DASHBOARD_PATH } from './auth-callback.js';

/** POST /auth/callback — the sign-in page's button: consumes the link once, starts the session, redirects to /app. */
export const handler = publicPage(
  {
    summary: 'Sign in with a link',
    description:
      'Extra: the form of the sign-in page (GET /api/v1/auth/callback), `application/x-www-form-urlencoded`. ' +
      'Consumes the link (once) and starts a session: `els_session` (HttpOnly, SameSite=Lax, Secure over https, ' +
      'Path=/api/v1; ends after 12 h idle or 7 days) and `els_csrf` (readable, Path=/: echo it in `X-CSRF-Token` on ' +
      'every POST, PATCH or DELETE made with the session), then redirects (303) to /app. It signs in at once only in ' +
      'the browser that asked for the link (its `els_signin` cookie, then expired) or with `confirm=yes` (the person ' +
      'confirmed the account the page named); otherwise it answers the page that asks, 200, and the link stays ' +
      'usable. A post from another site (`Sec-Fetch-Site` other than `same-origin`, or an `Origin` of another host) ' +
      'answers 403 and consumes nothing. A used, expired, unknown or malformed link answers one page, 400.',
    tags: ['Sign-in'],
    form: z.object({
      token: z.string().check(z.maxLength(100), z.meta({ description: 'The one-time token of the link' })),
      [CONFIRM_FIELD]: z.optional(
        z.literal(CONFIRM_VALUE).check(z.meta({ description: 'The person confirmed the account the page named' })),
      ),
    }),
    pages: {
      303: 'Signed in: a redirect to /app with the session cookies',
      200: 'Not signed in yet: the page that names the account and asks to confirm (the link was not asked for in this browser)',
      400: 'The link cannot be used (used, expired or not valid)',
      403: 'Refused: the form was posted from another site',
    },
  },
  [userStore, sessionStore, clientStore, clock],
  async (_input, { deps, event }): Promise<PageResult<200 | 303 | 400 | 403>> => {
    const signInUrl = `${deps.config.PUBLIC_BASE_URL}${DASHBOARD_PATH}`;
    if (!isSameOriginPost(event.headers ?? {})) return { status: 403 as const, html: signInCrossSitePage(signInUrl) };
    const fields = formFieldsOf(event);
    const token = fields.get('token') ?? undefined;
    const nonce = cookieValue(event.cookies, event.headers?.['cookie'], SIGN_IN_BINDING_COOKIE);
    const started = await completeSignIn(deps, token, {
      bindingNonce: nonce,
      confirmed: fields.get(CONFIRM_FIELD) === CONFIRM_VALUE,
    });
    if (started === 'unconfirmed') {
      const view = await readSignInLink(deps, token, nonce);
      if (view && token) {
        const html = signInConfirmPage({ ...view, bound: false, action: `${API_BASE_PATH}/auth/callback`, token });
        return { status: 200 as const, html, headers: { 'content-security-policy': SIGN_IN_PAGE_CSP } };
      }
    }
    const scope = { secure: event.headers?.['x-forwarded-proto'] === 'https', apiPath: API_BASE_PATH };
    if (!started || started === 'unconfirmed') return { status: 400 as const, html: signInLinkInvalidPage(signInUrl) };
    return {
      status: 303 as const,
      html: `<!DOCTYPE html><title>Signed in</title><a href="${DASHBOARD_PATH}">Continue</a>`,
      headers: { location: DASHBOARD_PATH },
      cookies: [...sessionCookies(started.sessionId, started.csrfToken, scope), clearedSignInBindingCookie(scope)],
    };
  },
);
