import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { authenticates, routes } from '../../../functions/routes.js';
import { assertProperty } from './fixed-seed.js';
import { FuzzSession, type Credentials } from './fuzz-session.js';
import { malformedBody, malformedQuery, oddHeaders, pathWith } from './malformed-input.js';

/**
 * The dashboard's session on every authenticated route — its own cookies with the CSRF header echoed, left
 * out or wrong, and malformed or repeated session cookies — with malformed bodies and odd headers: answered below 500,
 * with the envelope, writing nothing when refused. Sign-in and the link's callback with odd addresses and tokens too.
 */

const RUNS_PER_ROUTE = 6;

let session: FuzzSession;

beforeAll(async () => {
  session = await FuzzSession.openSignedIn();
});

const badSessionId = fc.oneof(
  fc.constantFrom('', 'x', 'A'.repeat(43), 'A'.repeat(44), '%00', '"quoted"', 'a b', 'é'.repeat(43), 'A'.repeat(5000)),
  fc.string({ minLength: 0, maxLength: 60 }).filter((v) => !/[;\r\n]/.test(v)),
);

const credentials: fc.Arbitrary<Credentials> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'session' as const, csrf: 'echo' }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'session' as const, csrf: 'none' }) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.constantFrom('', 'x', 'A'.repeat(43)),
        fc.array(fc.constant('A'.repeat(43)), { minLength: 2, maxLength: 3 }),
      )
      .map((csrf) => ({ kind: 'session' as const, csrf })),
  },
  { weight: 1, arbitrary: badSessionId.map((cookie) => ({ kind: 'session' as const, csrf: 'echo', cookie })) },
);

/** Sign-out ends the session the other probes use: it has a test of its own, last. */
const guarded = routes.filter((r) => (authenticates(r) || r.path === '/auth/me') && r.path !== '/auth/sign-out');

describe('session credentials', () => {
  it('covers every route the authenticator guards', () => {
    expect(guarded.length).toBeGreaterThan(40);
  });

  it.each(guarded.map((route, index) => [`${route.method} ${route.path}`, route, index] as const))(
    'are answered on %s below 500, with the envelope, writing nothing when refused',
    async (_name, route, index) => {
      const request = fc.record({
        path: pathWith(route.path, fc.constantFrom('1', '2', 'a%40b.co', '999999')),
        credentials,
        headers: oddHeaders,
        body: fc.option(malformedBody, { nil: undefined }),
      });
      await assertProperty(
        fc.asyncProperty(request, async ({ path, credentials, headers, body }) => {
          await session.probe({
            method: route.method,
            path,
            // A route that answers a page (html) may answer it with a session too; its refusals are still the envelope.
            html: route.html,
            credentials,
            headers: { ...headers, ...(body?.contentType === undefined ? {} : { 'content-type': body.contentType }) },
            body: body?.payload,
          });
        }),
        { numRuns: RUNS_PER_ROUTE, seedOffset: 10_000 + index },
      );
    },
    60_000,
  );
});

describe('sign-in and the link', () => {
  const address = fc.oneof(
    fc.emailAddress(),
    fc.constantFrom(
      '',
      ' ',
      'a@b',
      '@example.com',
      'x'.repeat(300) + '@example.com',
      'DEMO@EXAMPLE.COM',
      'a@b.co\u0000',
    ),
    fc.string({ maxLength: 80 }),
  );

  it('answers a sign-in request below 500 with the envelope, whatever the address or body', async () => {
    const request = fc.record({
      body: fc.oneof(
        address.map((email) => ({
          payload: JSON.stringify({ email }),
          contentType: 'application/json' as string | undefined,
        })),
        malformedBody,
      ),
      headers: oddHeaders,
    });
    await assertProperty(
      fc.asyncProperty(request, async ({ body, headers }) => {
        const answer = await session.probe({
          method: 'POST',
          path: '/auth/sign-in',
          credentials: { kind: 'none' },
          headers: { ...headers, ...(body.contentType === undefined ? {} : { 'content-type': body.contentType }) },
          body: body.payload,
        });
        expect([202, 400, 413, 415, 422, 429]).toContain(answer.status);
      }),
      { numRuns: 40, seedOffset: 20_000 },
    );
  }, 120_000);

  it('answers any token or query on the callback with a page, never a 500, and never a session', async () => {
    const token = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      fc.constantFrom('', '%', '%ZZ', 'A'.repeat(43) + '%00', 'A'.repeat(10_000)),
    );
    const query = fc.oneof(
      token.map((t) => `token=${encodeURIComponent(t)}`),
      token.map((t) => `token=${t.replace(/[#\s]/g, '')}`),
      malformedQuery,
    );
    await assertProperty(
      fc.asyncProperty(query, async (q) => {
        const answer = await session.probe({
          method: 'GET',
          path: `/auth/callback?${q}`,
          credentials: { kind: 'none' },
          html: true,
        });
        expect(answer.status).toBeLessThan(500);
        expect(answer.status).not.toBe(302);
      }),
      { numRuns: 40, seedOffset: 20_001 },
    );
  }, 120_000);
});

describe('sign-out', () => {
  it('is refused without the CSRF token and ends the session with it', async () => {
    for (const csrf of ['none', '', 'A'.repeat(43)]) {
      expect(
        (await session.probe({ method: 'POST', path: '/auth/sign-out', credentials: { kind: 'session', csrf } }))
          .status,
      ).toBe(403);
    }
    expect(
      (await session.probe({ method: 'GET', path: '/auth/me', credentials: { kind: 'session', csrf: 'none' } })).status,
    ).toBe(200);
    expect(
      (await session.probe({ method: 'POST', path: '/auth/sign-out', credentials: { kind: 'session', csrf: 'echo' } }))
        .status,
    ).toBe(200);
    expect(
      (await session.probe({ method: 'GET', path: '/auth/me', credentials: { kind: 'session', csrf: 'none' } })).status,
    ).toBe(401);
  });
});
