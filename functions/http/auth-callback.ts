import { publicPage } from '../../shared/http/public-page.js';
import * as z from '../../shared/validation/zod.js';
import { API_BASE_PATH } from '../routes.js';
import { clientStore } from '../../shared/composition/providers/client-store.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { sessionStore } from '../../shared/composition/providers/session-store.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { readSignInLink } from '../../shared/domain/auth/sign-in.js';
import { SIGN_IN_BINDING_COOKIE } from '../../shared/domain/auth/sign-in-binding.js';
import { SIGN_IN_PAGE_CSP, signInConfirmPage, signInLinkInvalidPage } from '../../shared/domain/auth/sign-in-pages.js';
import { cookieValue } from '../../shared/domain/auth/session-tokens.js';

/** Where the dashboard's sign-in page lives: the invalid-link page points there. */
export const DASHBOARD_PATH = '/app';

/** GET /auth/callback?token= — the link of the sign-in e-mail: a page with a "Sign in" button; it consumes nothing. */
export const handler = publicPage(
  {
    summary: 'Open a sign-in link',
    description:
      'Extra: the link of the sign-in and invitation e-mails. Answers an HTML page (no script) with a ' +
      '"Sign in" button whose form posts the token to POST /api/v1/auth/callback; opening the link (GET or HEAD, as ' +
      'mail scanners do) consumes nothing and starts no session. In the browser that asked for the link (its ' +
      '`els_signin` cookie) the page just offers the button; elsewhere (another device, an invitation, a link someone ' +
      'else made the browser open) it names the account — address and client — and asks to confirm. A used, ' +
      'expired, unknown or malformed link answers one page, 400.',
    tags: ['Sign-in'],
    query: z.object({
      token: z.optional(
        z.string().check(
          // A page declares no 422: any token that is not 43 base64url characters is the bad-link page, as the text says.
          z.meta({
            maxLength: 43,
            description: 'The one-time token of the link (43 characters; any other: the 400 page)',
          }),
        ),
      ),
    }),
    pages: {
      200: 'The sign-in page: the account, and a button that posts the token (nothing is consumed yet)',
      400: 'The link cannot be used (used, expired or not valid)',
    },
  },
  [sessionStore, userStore, clientStore, clock],
  async ({ query }, { deps, event }) => {
    const nonce = cookieValue(event.cookies, event.headers?.['cookie'], SIGN_IN_BINDING_COOKIE);
    const view = await readSignInLink(deps, query.token, nonce);
    if (!view || !query.token)
      return { status: 400 as const, html: signInLinkInvalidPage(`${deps.config.PUBLIC_BASE_URL}${DASHBOARD_PATH}`) };
    const html = signInConfirmPage({ ...view, action: `${API_BASE_PATH}/auth/callback`, token: query.token });
    return { status: 200 as const, html, headers: { 'content-security-policy': SIGN_IN_PAGE_CSP } };
  },
);
