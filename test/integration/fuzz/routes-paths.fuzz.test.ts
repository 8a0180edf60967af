import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { routes } from '../../../functions/routes.js';
import { assertProperty } from './fixed-seed.js';
import { FuzzSession } from './fuzz-session.js';
import { malformedPathValue, mangledPath, pathWith } from './malformed-input.js';

/** Malformed paths on every route answer below 500, with the envelope, and a refusal writes nothing. */

const RUNS_PER_ROUTE = 7;

let session: FuzzSession;

beforeAll(async () => {
  session = await FuzzSession.open();
});

const hasParameters = (path: string) => path.includes('{');

describe('malformed paths', () => {
  it.each(routes.map((route, index) => [`${route.method} ${route.path}`, route, index] as const))(
    'are answered on %s below 500, with the envelope, writing nothing when refused',
    async (_name, route, index) => {
      // A route without parameters can still be reached through a bent path (`//`, `/..`, other case).
      const path = hasParameters(route.path)
        ? fc.oneof(
            { weight: 3, arbitrary: pathWith(route.path, malformedPathValue) },
            { weight: 1, arbitrary: mangledPath(route.path, malformedPathValue) },
          )
        : mangledPath(route.path, malformedPathValue);
      await assertProperty(
        fc.asyncProperty(path, async (fuzzedPath) => {
          await session.probe({
            method: route.method,
            root: route.root,
            html: route.html,
            bareJson: route.bareJson,
            path: fuzzedPath,
            credentials: { kind: 'client-key' },
          });
        }),
        { numRuns: RUNS_PER_ROUTE, seedOffset: index },
      );
    },
    60_000,
  );
});
