import { SignJWT } from 'jose';
import { describe, expect, inject, it } from 'vitest';
import { request } from './support/api.js';
import { createTestClient, suspendTestClient } from './support/clients.js';

/** A token as the client's identity provider would issue it (claims and lifetime adjustable per test). */
function token(claims: Record<string, unknown>, opts: { exp?: string; secret?: string; aud?: string } = {}) {
  const jwt = inject('jwt');
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(jwt.issuer)
    .setAudience(opts.aud ?? jwt.audience)
    .setIssuedAt()
    .setExpirationTime(opts.exp ?? '5m')
    .sign(new TextEncoder().encode(opts.secret ?? jwt.secret));
}

describe('JWT bearer tokens over HTTP', () => {
  it('authenticates the client named by the client_id claim and scopes data to it', async () => {
    const a = await createTestClient();
    const b = await createTestClient();
    const created = await request('POST', '/client/contacts', { key: await token({ client_id: a.id }), body: { email: 'jwt@x.test' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ client_id: a.id, created_by: 0 });
    const other = await request('GET', '/client/contacts/jwt@x.test', { key: await token({ client_id: b.id }) });
    expect(other.status).toBe(404);
  });

  it.each([
    ['expired', { exp: '-1m' }],
    ['signed with another secret', { secret: 'x'.repeat(64) }],
    ['for another audience', { aud: 'someone-else' }],
  ])('answers 401 for a token %s', async (_name, opts) => {
    const client = await createTestClient();
    const res = await request('GET', '/client/contacts/1', { key: await token({ client_id: client.id }, opts) });
    expect(res.status).toBe(401);
    expect(res.body.errors).toEqual([{ condition: 'unauthorized', error: expect.any(String), key: 'authorization' }]);
  });

  it('answers 403 when the token names a suspended client', async () => {
    const client = await createTestClient();
    await suspendTestClient(client.id);
    const res = await request('GET', '/client/contacts/1', { key: await token({ client_id: client.id }) });
    expect(res.status).toBe(403);
  });
});
