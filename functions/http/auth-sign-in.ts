import { setTimeout as sleep } from 'node:timers/promises';
import { accepted } from '../../shared/http/envelope.js';
import { publicApi } from '../../shared/http/public-api.js';
import * as z from '../../shared/validation/zod.js';
import { API_BASE_PATH } from '../routes.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { sessionStore } from '../../shared/composition/providers/session-store.js';
import { systemMail } from '../../shared/composition/providers/system-mail.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { Email } from '../../shared/domain/contacts/schemas.js';
import { requestSignIn, SIGN_IN_LIMITS, SIGN_IN_WINDOW_SECONDS } from '../../shared/domain/auth/sign-in.js';
import { logger } from '../../shared/logger.js';

/**
 * Every answer (202, with or without an account) leaves no sooner than this after the request arrived: the work an
 * account adds (a link written, an e-mail sent) fits inside it, so the time does not tell either (issue 23 §2).
 */
export const SIGN_IN_ANSWER_FLOOR_MS = 400;

const SignInBody = z.object({ email: Email.check(z.meta({ description: 'The address of the dashboard account' })) });

/** POST /auth/sign-in — the same 202 whether or not the address has an account; an account gets a one-time link. */
export const handler = publicApi(
  {
    summary: 'Ask for a sign-in link',
    description:
      'Extra (issue 23): passwordless sign-in to the dashboard. Always the same 202, whether or not the address has ' +
      'an account; an account gets an e-mail with a one-time link (GET /api/v1/auth/callback), valid 15 minutes. At ' +
      `most ${SIGN_IN_LIMITS.addr} requests per address and ${SIGN_IN_LIMITS.ip} per client IP in ${SIGN_IN_WINDOW_SECONDS / 60} minutes; ` +
      'beyond, 429 `rate_limited`, with or without an account.',
    tags: ['Sign-in'],
    body: SignInBody,
    responses: { 202: z.object({}) },
    errors: [429],
  },
  [userStore, sessionStore, systemMail, clock],
  async ({ body }, { deps, event }) => {
    const started = Date.now();
    try {
      const outcome = await requestSignIn(
        deps,
        { email: body.email, ip: event.requestContext?.http?.sourceIp ?? 'unknown' },
        `${deps.config.PUBLIC_BASE_URL}${API_BASE_PATH}/auth/callback`,
        (error) => logger.error('sign-in e-mail not sent', { error: error as Error }),
      );
      if (outcome === 'rejected') logger.warn('sign-in e-mail refused by the provider');
    } finally {
      await sleep(Math.max(0, SIGN_IN_ANSWER_FLOOR_MS - (Date.now() - started)));
    }
    return accepted({}, 'If the address has an account, a sign-in link is on its way; it works once, for 15 minutes');
  },
);
