import { SignJWT } from 'jose';
import { describe, expect, inject, it } from 'vitest';
import { request } from './support/api.js';
import { createTestClient, suspendTestClient } from './support/clients.js';

/**
 * A token as the client's identity provider would issue it (claims and lifetime adjustable per test). `exp: null`
 * leaves the claim out; `iat: null` too. Numbers are seconds from now.
 */
function token(
  claims: Record<string, unknown>,
  opts: { exp?: string | number | null; iat?: number | null; secret?: string; aud?: string } = {},
) {
  const jwt = inject('jwt');
  const now = Math.floor(Date.now() / 1000);
  const signer = new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(jwt.issuer)
    .setAudience(opts.aud ?? jwt.audience);
  if (opts.iat !== null) signer.setIssuedAt(now + (opts.iat ?? 0));
  const exp = opts.exp === undefined ? '5m' : opts.exp;
  if (exp !== null) signer.setExpirationTime(typeof exp === 'number' ? now + exp : exp);
  return signer.sign(new TextEncoder().encode(opts.secret ?? jwt.secret));
}

const HOUR = 3600;

describe('JWT bearer tokens over HTTP', () => {
  it('authenticates the client named by the client_id claim and scopes data to it', async () => {
    const a = await createTestClient();
    const b = await createTestClient();
    const created = await request('POST', '/client/contacts', {
      key: await token({ client_id: a.id }),
      body: { email: 'jwt@x.test' },
    });
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

  it.each([
    ['has no exp claim', { exp: null }, 'The token has no exp claim'],
    ['has no exp claim nor iat', { exp: null, iat: null }, 'The token has no exp claim'],
    ['lives longer than 24 h from its iat', { exp: 24 * HOUR + 60 }, 'The token lifetime exceeds 24 h'],
    [
      'was issued long ago and expires in a year',
      { iat: -HOUR, exp: 365 * 24 * HOUR },
      'The token lifetime exceeds 24 h',
    ],
    [
      'has no iat and expires more than 24 h from now',
      { iat: null, exp: 25 * HOUR },
      'The token lifetime exceeds 24 h',
    ],
    [
      'claims to be issued in the future to stretch its lifetime',
      { iat: 30 * HOUR, exp: 31 * HOUR },
      'The token lifetime exceeds 24 h',
    ],
  ])('answers 401 saying why for a token that %s', async (_name, opts, error) => {
    // Prepare
    const client = await createTestClient();

    // Act
    const res = await request('GET', '/client/contacts/1', { key: await token({ client_id: client.id }, opts) });

    // Assess
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, data: {}, message: 'Unauthorized' });
    expect(res.body.errors).toEqual([{ condition: 'unauthorized', error, key: 'authorization' }]);
  });

  it.each([
    ['lives exactly 24 h', { exp: 24 * HOUR }],
    ['has no iat and expires within 24 h', { iat: null, exp: 23 * HOUR }],
  ])('accepts a token that %s', async (_name, opts) => {
    const client = await createTestClient();
    const res = await request('GET', '/client/contacts/1', { key: await token({ client_id: client.id }, opts) });
    expect(res.status).toBe(404);
    expect(res.body.errors).toEqual([expect.objectContaining({ condition: 'not_found' })]);
  });

  it('answers 403 when the token names a suspended client', async () => {
    const client = await createTestClient();
    await suspendTestClient(client.id);
    const res = await request('GET', '/client/contacts/1', { key: await token({ client_id: client.id }) });
    expect(res.status).toBe(403);
  });
});
