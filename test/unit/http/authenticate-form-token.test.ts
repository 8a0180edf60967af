import { describe, expect, it } from 'vitest';
import type { Authenticator, Principal } from '../../../shared/domain/auth/authenticate.js';
import { digestToken, newToken } from '../../../shared/domain/auth/session-tokens.js';
import { authenticate } from '../../../shared/http/middleware/authenticate.js';
import type { AppError } from '../../../shared/errors.js';

const csrf = newToken();
/** A viewer's dashboard session: the CSRF digest is what the session stores. */
const principal = {
  clientId: 7,
  keyId: null,
  method: 'session',
  session: { role: 4, csrf_hash: digestToken(csrf) },
} as unknown as Principal;
const authenticator = { authenticateRequest: async () => principal } as unknown as Authenticator;

/** The guard's verdict on a session's form POST to the template document route. */
async function verdict(
  options: { csrfFormField?: string },
  headers: Record<string, string>,
  body: string,
): Promise<string> {
  const request = {
    event: {
      routeKey: 'POST /api/v1/client/email-templates/{id}/html',
      headers: { cookie: `els_session=s; els_csrf=${csrf}`, ...headers },
      body,
      isBase64Encoded: false,
    },
    context: { api: {} },
  };
  try {
    await authenticate(() => authenticator, options).before!(request as never);
    return 'allowed';
  } catch (error) {
    return (error as AppError).items[0]!.key;
  }
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe("authenticate: a page's form carries the CSRF token as a field", () => {
  it.each([
    [
      'the field equal to the cookie',
      { csrfFormField: 'csrf_token' },
      FORM,
      `html_body=x&csrf_token=${csrf}`,
      'allowed',
    ],
    ['no field', { csrfFormField: 'csrf_token' }, FORM, 'html_body=x', 'csrf'],
    ['another token in the field', { csrfFormField: 'csrf_token' }, FORM, `csrf_token=${newToken()}`, 'csrf'],
    [
      'the field in a body that is not a form',
      { csrfFormField: 'csrf_token' },
      { 'content-type': 'application/json' },
      `csrf_token=${csrf}`,
      'csrf',
    ],
    ['the field on a route that takes no form', {}, FORM, `csrf_token=${csrf}`, 'csrf'],
    [
      'the header, as every route takes it',
      { csrfFormField: 'csrf_token' },
      { ...FORM, 'x-csrf-token': csrf },
      'html_body=x',
      'allowed',
    ],
  ] as const)('%s: %s', async (_label, options, headers, body, expected) => {
    expect(await verdict(options, headers, body)).toBe(expected);
  });
});
