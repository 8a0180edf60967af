import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { FixedClock, memoryClientAdapters } from '../../../../shared/adapters/memory/client-stores.js';
import { fixedSecret } from '../../../../shared/adapters/memory/fixed-secret.js';
import { hashApiKey } from '../../../../shared/domain/api-keys/api-key.js';
import { rotateApiKey } from '../../../../shared/domain/api-keys/rotate-api-key.js';
import { Authenticator, parseAuthorization } from '../../../../shared/domain/auth/authenticate.js';
import { createClient } from '../../../../shared/domain/clients/create-client.js';
import { disableClientKey } from '../../../../shared/domain/clients/disable-client-key.js';
import { suspendClient } from '../../../../shared/domain/clients/suspend-client.js';
import { createContainer } from '../../../../shared/composition/container.js';
import { authenticator } from '../../../../shared/composition/providers/authenticator.js';
import { loadConfig } from '../../../../shared/config.js';
import { AppError } from '../../../../shared/errors.js';

const SECRET = 'a-test-secret-that-is-at-least-32-bytes-long';

async function setup(jwt: Partial<ConstructorParameters<typeof Authenticator>[1]> = {}, ttlMs = 60_000) {
  const deps = memoryClientAdapters();
  const client = await createClient(deps, { email: 'owner@acme.test', name: 'Acme' });
  const auth = new Authenticator(deps, { clientIdClaim: 'client_id', ...jwt }, ttlMs);
  return { deps, client, auth };
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('parseAuthorization', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['abc', 'abc'],
    ['  Bearer   abc  ', 'abc'],
  ])('reads %j as the token %j', (header, token) => {
    expect(parseAuthorization(header)).toBe(token);
  });

  it.each([undefined, '', '   ', 'Basic a b', 'Bearer a b'])('refuses %j with 401', (header) => {
    expect(() => parseAuthorization(header)).toThrowError(AppError);
    try {
      parseAuthorization(header);
    } catch (e) {
      expect((e as AppError).status).toBe(401);
    }
  });
});

describe('Authenticator with API keys', () => {
  it('accepts the key in Bearer form and raw form', async () => {
    // Prepare
    const { client, auth } = await setup();
    // Act
    const bearer = await auth.authenticate(`Bearer ${client.api_key}`);
    const raw = await auth.authenticate(client.api_key);
    // Assess
    expect(bearer).toEqual({
      clientId: client.id,
      keyId: expect.any(Number),
      keyHash: hashApiKey(client.api_key),
      method: 'api_key',
      rateLimits: expect.any(Object),
    });
    expect(raw).toEqual(bearer);
  });

  it('answers 401 for an unknown key of the right shape', async () => {
    const { auth } = await setup();
    const error = await failure(auth.authenticate(`Bearer els_${'A'.repeat(40)}`));
    expect(error.status).toBe(401);
    expect(error.items[0]).toMatchObject({ condition: 'unauthorized', key: 'authorization' });
  });

  it('answers 401 for a disabled key', async () => {
    const { deps, client, auth } = await setup();
    await disableClientKey(deps, client.id);
    expect((await failure(auth.authenticate(client.api_key))).status).toBe(401);
  });

  it('answers 403 for a suspended client, even from the cache', async () => {
    const { deps, client, auth } = await setup();
    await auth.authenticate(client.api_key); // cached while active
    await suspendClient(deps, client.id);
    const fresh = new Authenticator(deps, { clientIdClaim: 'client_id' }, 60_000);
    const error = await failure(fresh.authenticate(client.api_key));
    expect(error.status).toBe(403);
    expect(error.items[0]).toMatchObject({ condition: 'forbidden', key: 'client' });
  });

  it('rejects a rotated-away key at once on the container that rotated it (forget)', async () => {
    const { deps, client, auth } = await setup();
    await auth.authenticate(client.api_key);
    const principal = await auth.authenticate(client.api_key);
    const rotated = await rotateApiKey(deps, client.id, principal);
    auth.forget(rotated.previousHash!);
    expect((await failure(auth.authenticate(client.api_key))).status).toBe(401);
    await expect(auth.authenticate(rotated.key)).resolves.toMatchObject({ clientId: client.id, keyId: rotated.id });
    expect(rotated.previousHash).toBe(hashApiKey(client.api_key));
  });

  it('does not put back a key forgotten while a lookup of it was in flight (concurrent rotation)', async () => {
    // Prepare: a request reads the key's record, then waits; meanwhile the key is rotated away and forgotten.
    const { deps, client, auth: other } = await setup();
    const principal = await other.authenticate(client.api_key);
    // The container that rotates: its cache is empty, so its lookup reads the store.
    const auth = new Authenticator(deps, { clientIdClaim: 'client_id' }, 60_000);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const getByHash = deps.apiKeys.getByHash.bind(deps.apiKeys);
    deps.apiKeys.getByHash = async (hash) => {
      const record = await getByHash(hash);
      await gate;
      return record;
    };
    const inFlight = auth.authenticate(client.api_key);
    deps.apiKeys.getByHash = getByHash;

    // Act
    const rotated = await rotateApiKey(deps, client.id, principal);
    auth.forget(rotated.previousHash!);
    release();
    await inFlight;

    // Assess
    expect((await failure(auth.authenticate(client.api_key))).status).toBe(401);
  });

  it('refuses (409) a second rotation with a key that was already rotated away', async () => {
    const { deps, client, auth } = await setup();
    const principal = await auth.authenticate(client.api_key);
    await rotateApiKey(deps, client.id, principal);
    const error = await failure(rotateApiKey(deps, client.id, principal));
    expect(error.status).toBe(409);
    expect(error.items[0]).toMatchObject({ condition: 'state', key: 'api_key' });
  });

  it('re-reads a cached key once the cache entry expires', async () => {
    const { deps, client, auth } = await setup({}, 60_000);
    await auth.authenticate(client.api_key);
    await disableClientKey(deps, client.id);
    await expect(auth.authenticate(client.api_key)).resolves.toBeDefined(); // still cached
    deps.clock.advance(60_001);
    expect((await failure(auth.authenticate(client.api_key))).status).toBe(401);
  });
});

describe('Authenticator with JWTs', () => {
  const HOUR = 3600;
  /** Signed at the memory adapters' fixed clock; `exp`/`iat` in seconds from then, `null` leaves the claim out. */
  const sign = (
    claims: Record<string, unknown>,
    opts: { iss?: string; aud?: string; exp?: number | null; iat?: number | null; secret?: string } = {},
  ) => {
    const now = Math.floor(new FixedClock().now().getTime() / 1000);
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(opts.iss ?? 'https://issuer.test')
      .setAudience(opts.aud ?? 'els');
    if (opts.iat !== null) jwt.setIssuedAt(now + (opts.iat ?? 0));
    if (opts.exp !== null) jwt.setExpirationTime(now + (opts.exp ?? 300));
    return jwt.sign(new TextEncoder().encode(opts.secret ?? SECRET));
  };

  const jwt = { hs256Secret: fixedSecret(SECRET), issuer: 'https://issuer.test', audience: 'els' };

  it('accepts a valid HS256 token naming the client in the configured claim', async () => {
    const { client, auth } = await setup(jwt);
    const token = await sign({ client_id: client.id });
    await expect(auth.authenticate(`Bearer ${token}`)).resolves.toEqual({
      clientId: client.id,
      keyId: null,
      method: 'jwt',
      rateLimits: expect.any(Object),
    });
  });

  it('verifies with the secret its source holds now, so a rotated secret is taken up without a new container', async () => {
    // Prepare
    const rotated = 'a-rotated-secret-that-is-at-least-32-bytes';
    let current = SECRET;
    const { client, auth } = await setup({ ...jwt, hs256Secret: { value: async () => current } }, 0);
    await auth.authenticate(`Bearer ${await sign({ client_id: client.id })}`);

    // Act
    current = rotated;

    // Assess
    await expect(
      auth.authenticate(`Bearer ${await sign({ client_id: client.id }, { secret: rotated })}`),
    ).resolves.toMatchObject({ clientId: client.id });
    expect((await failure(auth.authenticate(`Bearer ${await sign({ client_id: client.id })}`))).status).toBe(401);
  });

  it.each([
    ['a wrong issuer', { iss: 'https://evil.test' }, 'The token is invalid'],
    ['a wrong audience', { aud: 'other' }, 'The token is invalid'],
    ['an expired token', { exp: -60 }, 'The token has expired'],
    ['a wrong signature', { secret: 'another-secret-that-is-at-least-32-bytes!!' }, 'The token is invalid'],
    ['a token without exp', { exp: null }, 'The token has no exp claim'],
    ['a lifetime over 24 h from iat', { exp: 24 * HOUR + 1 }, 'The token lifetime exceeds 24 h'],
    ['a lifetime over 24 h from now without iat', { iat: null, exp: 24 * HOUR + 1 }, 'The token lifetime exceeds 24 h'],
    [
      'a future iat that would stretch the lifetime',
      { iat: 2 * HOUR, exp: 25 * HOUR },
      'The token lifetime exceeds 24 h',
    ],
  ])('answers 401 for %s, saying why', async (_name, opts, error) => {
    const { client, auth } = await setup(jwt);
    const token = await sign({ client_id: client.id }, opts);
    const failed = await failure(auth.authenticate(`Bearer ${token}`));
    expect(failed.status).toBe(401);
    expect(failed.items).toEqual([{ condition: 'unauthorized', key: 'authorization', error }]);
  });

  it('accepts a lifetime of exactly the maximum', async () => {
    const { client, auth } = await setup(jwt);
    const token = await sign({ client_id: client.id }, { exp: 24 * HOUR });
    await expect(auth.authenticate(`Bearer ${token}`)).resolves.toMatchObject({ clientId: client.id });
  });

  it('reads the maximum lifetime from the settings', async () => {
    const { client, auth } = await setup({ ...jwt, maxLifetimeSeconds: HOUR });
    const failed = await failure(
      auth.authenticate(`Bearer ${await sign({ client_id: client.id }, { exp: HOUR + 1 })}`),
    );
    expect(failed.items[0]?.error).toBe('The token lifetime exceeds 1 h');
  });

  it('takes the maximum lifetime from JWT_MAX_LIFETIME_SECONDS when the container builds it', async () => {
    // Prepare
    const adapters = memoryClientAdapters();
    const client = await createClient(adapters, { email: 'owner@acme.test', name: 'Acme' });
    const config = loadConfig({
      JWT_HS256_SECRET: SECRET,
      JWT_ISSUER: jwt.issuer,
      JWT_AUDIENCE: jwt.audience,
      JWT_MAX_LIFETIME_SECONDS: '3600',
    });
    const auth = createContainer({ config, overrides: adapters }).use(authenticator);

    // Act
    const failed = await failure(
      auth.authenticate(`Bearer ${await sign({ client_id: client.id }, { exp: HOUR + 1 })}`),
    );

    // Assess
    expect(failed.items[0]?.error).toBe('The token lifetime exceeds 1 h');
  });

  it('answers 401 when the claim names no known client', async () => {
    const { auth } = await setup(jwt);
    expect((await failure(auth.authenticate(`Bearer ${await sign({ client_id: 999 })}`))).status).toBe(401);
  });

  it('answers 401 when JWT authentication is not configured', async () => {
    const { client, auth } = await setup();
    expect((await failure(auth.authenticate(`Bearer ${await sign({ client_id: client.id })}`))).status).toBe(401);
  });
});
