import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { routes } from '../../../functions/routes.js';
import { assertProperty } from './fixed-seed.js';
import { FuzzSession, type Credentials } from './fuzz-session.js';
import { malformedAuthorization, malformedQuery, oddHeaders, pathWith } from './malformed-input.js';

/**
 * Odd headers and query strings on every route, with and without a valid key, answer below 500, with the
 * envelope, and a refusal writes nothing.
 */

const RUNS_PER_ROUTE = 6;

let session: FuzzSession;

beforeAll(async () => {
  session = await FuzzSession.open();
});

const credentials: fc.Arbitrary<Credentials> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'client-key' as const }) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        'bearer {key}',
        'BEARER {key}',
        'Bearer  {key}',
        'Bearer {key} ',
        'Bearer {key}x',
        '{key}',
        'Basic {key}',
      )
      .map((spelled) => ({ kind: 'client-key' as const, spelled })),
  },
  { weight: 1, arbitrary: malformedAuthorization.map((alsoSent) => ({ kind: 'client-key' as const, alsoSent })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 2, arbitrary: malformedAuthorization.map((authorization) => ({ kind: 'raw' as const, authorization })) },
);

/** A small body that may well be valid, so the headers and the query decide the answer. */
const plainBody = fc.option(fc.constantFrom('{}', '{"is_subscribed":true}', '{"q":"x","page":1}'), { nil: undefined });

describe('odd headers and query strings', () => {
  it.each(routes.map((route, index) => [`${route.method} ${route.path}`, route, index] as const))(
    'are answered on %s below 500, with the envelope, writing nothing when refused',
    async (_name, route, index) => {
      const request = fc.record({
        path: pathWith(route.path, fc.constantFrom('1', '2', 'a%40b.co')),
        query: fc.option(malformedQuery, { nil: undefined }),
        credentials,
        headers: oddHeaders,
        body: plainBody,
      });
      await assertProperty(
        fc.asyncProperty(request, async ({ path, query, credentials, headers, body }) => {
          await session.probe({
            method: route.method,
            root: route.root,
            html: route.html,
            bareJson: route.bareJson,
            path: query === undefined ? path : `${path}?${query}`,
            credentials,
            headers,
            body,
          });
        }),
        { numRuns: RUNS_PER_ROUTE, seedOffset: index },
      );
    },
    60_000,
  );
});
