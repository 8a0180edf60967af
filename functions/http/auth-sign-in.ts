import { accepted } from '../../shared/http/envelope.js';
import { publicApi } from '../../shared/http/public-api.js';
import * as z from '../../shared/validation/zod.js';
import { API_BASE_PATH } from '../routes.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { sessionStore } from '../../shared/composition/providers/session-store.js';
import { Email } from '../../shared/domain/contacts/schemas.js';
import { requestSignIn, SIGN_IN_LIMITS, SIGN_IN_WINDOW_SECONDS } from '../../shared/domain/auth/sign-in.js';
import { signInBindingCookie } from '../../shared/domain/auth/sign-in-binding.js';
import { newToken } from '../../shared/domain/auth/session-tokens.js';
import { logger } from '../../shared/logger.js';

const SignInBody = z.object({ email: Email.check(z.meta({ description: 'The address of the dashboard account' })) });

/** POST /auth/sign-in — the same 202 whether or not the address has an account; an account gets a one-time link. */
export const handler = publicApi(
  {
    summary: 'Ask for a sign-in link',
    description:
      'Extra: passwordless sign-in to the dashboard. Always the same 202, whether or not the address has ' +
      'an account, and in the same time: the e-mail is sent after the answer. An account gets an e-mail with a ' +
      'one-time link (GET /api/v1/auth/callback), valid 15 minutes. The answer sets `els_signin` (HttpOnly, ' +
      'SameSite=Strict, Path=/api/v1/auth/callback, 15 minutes): the link signs in without a question only in the ' +
      'browser that holds it; elsewhere its page names the account and asks first. ' +
      `Per address and client IP, ${SIGN_IN_LIMITS.addressFromIp} requests in ${SIGN_IN_WINDOW_SECONDS / 60} minutes send a ` +
      'mail; further ones still answer 202 and send nothing (a request from another IP is not affected). At most ' +
      `${SIGN_IN_LIMITS.ip} requests per client IP in ${SIGN_IN_WINDOW_SECONDS / 60} minutes; beyond, 429 \`rate_limited\`.`,
    tags: ['Sign-in'],
    body: SignInBody,
    responses: { 202: z.object({}) },
    errors: [429],
  },
  [sessionStore, queue, clock],
  async ({ body }, { deps, event }) => {
    // Always a new nonce, never one the browser brings: a value planted in a victim's browser must bind nothing.
    const nonce = newToken();
    const outcome = await requestSignIn(deps, {
      email: body.email,
      ip: event.requestContext?.http?.sourceIp ?? 'unknown',
      bindingNonce: nonce,
    });
    if (outcome === 'address_limit')
      logger.info('sign-in request over the per-address limit; no e-mail', { metric: 'sign_in_address_limit' });
    const secure = event.headers?.['x-forwarded-proto'] === 'https';
    return {
      ...accepted({}, 'If the address has an account, a sign-in link is on its way; it works once, for 15 minutes'),
      cookies: [signInBindingCookie(nonce, { secure, apiPath: API_BASE_PATH })],
    };
  },
);
