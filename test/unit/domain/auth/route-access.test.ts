import { describe, expect, it } from 'vitest';
import { authenticates, routes } from '../../../../functions/routes.js';
import type { Principal } from '../../../../shared/domain/auth/authenticate.js';
import { authorize, routeAccess } from '../../../../shared/domain/auth/route-access.js';
import { digestToken } from '../../../../shared/domain/auth/session-tokens.js';
import type { SessionRecord } from '../../../../shared/domain/auth/session-store.js';
import { ROLES, type Role } from '../../../../shared/domain/users/roles.js';
import { AppError } from '../../../../shared/errors.js';

const limits = { api: 10, events: 10 };
const CSRF = 'c'.repeat(43);
const sessionOf = (role: Role): Principal => ({
  clientId: 1,
  keyId: null,
  method: 'session',
  rateLimits: limits,
  session: { role, csrf_hash: digestToken(CSRF) } as SessionRecord,
});
const apiKey: Principal = { clientId: 1, keyId: 1, method: 'api_key', rateLimits: limits };

/** The routes the authenticating wrapper (jsonApi) serves: below /client, and the session's own under /auth. */
const guarded = routes.filter((r) => authenticates(r) || r.path === '/auth/me' || r.path === '/auth/sign-out');

const refusal = (principal: Principal, method: string, path: string): string | undefined => {
  try {
    authorize(principal, { method, path, csrfHeader: CSRF, csrfCookie: CSRF });
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(403);
    return (error as AppError).items[0]!.key;
  }
};

/** Every guarded route, who may call it: o owner, a admin, m member, v viewer, k API key / JWT. */
const EXPECTED: Record<string, string> = {
  'POST /client/api-keys/rotate': 'oak',
  'GET /client/api-keys': 'oa',
  'POST /client/api-keys': 'oa',
  'PATCH /client/api-keys/{id}': 'oa',
  'DELETE /client/api-keys/{id}': 'oa',
  'POST /auth/sign-out': 'oamv',
  'GET /auth/me': 'oamv',
  'GET /client/users': 'oamv',
  'POST /client/users': 'o',
  'PATCH /client/users/{id}': 'o',
  'DELETE /client/users/{id}': 'o',
  'GET /client/settings': 'oamvk',
  'PATCH /client/settings': 'oak',
  'POST /client/email-templates/list': 'oamvk',
  'POST /client/email-templates/{id}/render-preview': 'oamvk',
  'POST /client/email-templates/{id}/html': 'oamvk',
  // A preview counts without saving anything: a viewer may ask.
  'POST /client/segments/preview': 'oamvk',
  // A published journey decides mail at volume: publishing and its lifecycle are a manager's, as settings are.
  'POST /client/journeys/{id}/publish': 'oak',
  'POST /client/journeys/{id}/pause': 'oak',
  'POST /client/journeys/{id}/resume': 'oak',
  'POST /client/journeys/{id}/archive': 'oak',
  // A broadcast's start, resume and cancel send or stop mail to a whole audience: a manager's; its pause is anyone's.
  'POST /client/broadcasts/{id}/schedule': 'oak',
  'POST /client/broadcasts/{id}/resume': 'oak',
  'POST /client/broadcasts/{id}/cancel': 'oak',
  'POST /client/broadcasts/{id}/resend': 'oak',
  'POST /client/broadcasts/{id}/retry-failed': 'oak',
};
const expectedOf = (method: string, path: string): string => {
  const listed = EXPECTED[`${method} ${path}`];
  if (listed) return listed;
  if (method === 'GET') return 'oamvk';
  if (path.startsWith('/client/webhooks')) return 'oak';
  // Sending domains decide whose name the client's mail carries: as the settings, owners and admins only.
  if (path.startsWith('/client/domains')) return 'oak';
  return 'oamk';
};

describe('routeAccess / authorize', () => {
  it('covers every authenticated route of the route table', () => {
    expect(guarded.length).toBeGreaterThan(40);
    for (const route of guarded) expect(() => routeAccess(route.method, route.path)).not.toThrow();
  });

  it.each(guarded.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: each role and an API key as the table says',
    (_name, route) => {
      const who = {
        o: sessionOf(ROLES.owner),
        a: sessionOf(ROLES.admin),
        m: sessionOf(ROLES.member),
        v: sessionOf(ROLES.viewer),
        k: apiKey,
      };
      const allowed = Object.entries(who)
        .filter(([, principal]) => refusal(principal, route.method, route.path) === undefined)
        .map(([letter]) => letter)
        .join('');
      expect(allowed).toBe(expectedOf(route.method, route.path));
    },
  );

  it('refuses a session-only route to an API key with key authorization, and a role with key role', () => {
    expect(refusal(apiKey, 'GET', '/client/users')).toBe('authorization');
    expect(refusal(sessionOf(ROLES.viewer), 'POST', '/client/contacts')).toBe('role');
  });

  it.each([
    ['no header', undefined, CSRF],
    ['no cookie', CSRF, undefined],
    ['header and cookie differ', CSRF, 'd'.repeat(43)],
    ['both equal but not the session’s token', 'd'.repeat(43), 'd'.repeat(43)],
  ])('refuses a session change with %s (CSRF, key csrf)', (_name, header, cookie) => {
    expect(() =>
      authorize(sessionOf(ROLES.owner), {
        method: 'POST',
        path: '/client/contacts',
        csrfHeader: header,
        csrfCookie: cookie,
      }),
    ).toThrow(
      expect.objectContaining({
        status: 403,
        items: [expect.objectContaining({ condition: 'forbidden', key: 'csrf' })],
      }),
    );
  });

  it('asks no CSRF token of a read, nor of an API key', () => {
    expect(() =>
      authorize(sessionOf(ROLES.viewer), {
        method: 'GET',
        path: '/client/contacts',
        csrfHeader: undefined,
        csrfCookie: undefined,
      }),
    ).not.toThrow();
    expect(() =>
      authorize(apiKey, {
        method: 'DELETE',
        path: '/client/contacts/{id}',
        csrfHeader: undefined,
        csrfCookie: undefined,
      }),
    ).not.toThrow();
  });
});
