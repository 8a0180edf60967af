import { beforeAll, describe, expect, it } from 'vitest';
import { authenticates, routes } from '../../functions/routes.js';
import { addTestUser, asSession, createAccountClient, raw, signIn, type Session } from './support/sessions.js';

/**
 * Roles: every authenticated route, called over HTTP by each role's session and by an API key. Who may call what
 * is written out here, apart from the code's table: o owner, a admin, m member, v viewer, k API key.
 */
const EXPECTED: Record<string, string> = {
  'POST /client/api-keys/rotate': 'oak',
  'GET /client/api-keys': 'oa',
  'POST /client/api-keys': 'oa',
  'PATCH /client/api-keys/{id}': 'oa',
  'DELETE /client/api-keys/{id}': 'oa',
  'GET /auth/me': 'oamv',
  'GET /client/users': 'oamv',
  'POST /client/users': 'o',
  'PATCH /client/users/{id}': 'o',
  'DELETE /client/users/{id}': 'o',
  'PATCH /client/settings': 'oak',
  'POST /client/email-templates/list': 'oamvk',
  'POST /client/email-templates/{id}/render-preview': 'oamvk',
  'POST /client/email-templates/{id}/html': 'oamvk',
  // Journeys decide mail at volume once published: publishing and the lifecycle are a manager's, as settings are.
  'POST /client/journeys/{id}/publish': 'oak',
  'POST /client/journeys/{id}/pause': 'oak',
  'POST /client/journeys/{id}/resume': 'oak',
  'POST /client/journeys/{id}/archive': 'oak',
  // A segment preview counts without saving: a viewer may ask. A broadcast's start, resume and cancel are a manager's.
  'POST /client/segments/preview': 'oamvk',
  'POST /client/broadcasts/{id}/schedule': 'oak',
  'POST /client/broadcasts/{id}/resume': 'oak',
  'POST /client/broadcasts/{id}/cancel': 'oak',
  'POST /client/broadcasts/{id}/resend': 'oak',
  'POST /client/broadcasts/{id}/retry-failed': 'oak',
};
const expectedOf = (method: string, path: string): string =>
  EXPECTED[`${method} ${path}`] ??
  (method === 'GET'
    ? 'oamvk'
    : path.startsWith('/client/webhooks') || path.startsWith('/client/domains')
      ? 'oak'
      : 'oamk');

/** Sign-out would end the session the table uses; it has tests of its own. */
const guarded = routes.filter((r) => (authenticates(r) || r.path === '/auth/me') && r.path !== '/auth/sign-out');

let key: string;
const sessions: Record<'o' | 'a' | 'm' | 'v', Session> = {} as never;

beforeAll(async () => {
  const client = await createAccountClient('growth');
  key = client.api_key;
  const [admin, member, viewer] = await Promise.all([
    addTestUser(client, 2),
    addTestUser(client, 3),
    addTestUser(client, 4),
  ]);
  sessions.o = await signIn(client.email);
  sessions.a = await signIn(admin);
  sessions.m = await signIn(member);
  sessions.v = await signIn(viewer);
}, 60_000);

describe('each role against each route (over HTTP)', () => {
  it.each(guarded.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', async (_name, route) => {
    const path = route.path.replace(/\{\w+\}/g, '999999');
    const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
    const allowed = expectedOf(route.method, route.path);
    for (const who of ['o', 'a', 'm', 'v'] as const) {
      const res = await asSession(sessions[who], route.method, path, { body });
      if (allowed.includes(who)) {
        expect(res.status, `${who}: ${res.text.slice(0, 200)}`).not.toBe(403);
        expect(res.status, who).toBeLessThan(500);
      } else {
        expect(res.status, who).toBe(403);
        expect(res.body.errors, who).toEqual([
          {
            condition: 'forbidden',
            key: 'role',
            error: expect.stringMatching(/^The (owner|admin|member|viewer) role may not do this$/),
          },
        ]);
      }
    }
    const byKey = await raw(route.method, path, { body, headers: { authorization: `Bearer ${key}` } });
    // Rotation with the key rotates it: the table goes on with the new one.
    if (byKey.status === 200 && typeof byKey.body.data?.key === 'string') key = byKey.body.data.key;
    if (allowed.includes('k')) expect(byKey.status).not.toBe(403);
    else expect([byKey.status, byKey.body.errors?.[0]?.key]).toEqual([403, 'authorization']);
  });
});
