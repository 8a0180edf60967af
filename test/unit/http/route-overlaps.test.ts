import { describe, expect, it } from 'vitest';
import { routes, type RouteDefinition } from '../../../functions/routes.js';
import { Router } from '../../../shared/http/route-matcher.js';
import { fallbackRoutes, routeOverlaps, shadows } from '../../../shared/http/route-overlaps.js';

/** A literal segment never falls through to a `{param}` route, locally or on AWS. */

/** A request path for a route path: each `{param}` filled with a value no literal segment of the table has. */
const concrete = (path: string) => path.replace(/\{\w+\+?\}/g, '7');

describe('shadows', () => {
  it.each([
    ['/client/contacts/bulk', '/client/contacts/{id}', true],
    ['/client/contacts/{id}', '/client/contacts/bulk', false],
    ['/client/contacts/bulk/csv', '/client/contacts/{id}/subscription', false],
    ['/client/contacts/bulk/csv', '/client/contacts/{id}/csv', true],
    ['/a/b/{x}', '/a/{y}/c', true],
    ['/files/a/b', '/files/{key+}', true],
    ['/files/{name}', '/files/{key+}', true],
    ['/client/contacts', '/client/contacts/{id}', false],
    ['/client/contacts/{id}', '/client/contacts/{id}', false],
  ])('%s shadows %s: %s', (specific, general, expected) => {
    expect(shadows(specific, general)).toBe(expected);
  });
});

describe('the route table', () => {
  const api = routes.filter((r) => !r.root);
  const router = new Router(routes, { basePath: '/api/v1' });

  it('overlaps only where a literal path sits beside a {param} path, each listed with the methods it lacks', () => {
    expect(routeOverlaps(routes)).toEqual([
      { specific: '/client/api-keys/rotate', general: '/client/api-keys/{id}', gaps: ['PATCH', 'DELETE'], root: false },
      {
        specific: '/client/contacts/bulk',
        general: '/client/contacts/{id}',
        gaps: ['GET', 'HEAD', 'PATCH', 'DELETE'],
        root: false,
      },
      {
        specific: '/client/email-templates/list',
        general: '/client/email-templates/{id}',
        gaps: ['GET', 'HEAD', 'PATCH', 'DELETE'],
        root: false,
      },
      {
        specific: '/client/topics/preference-page-preview',
        general: '/client/topics/{id}',
        gaps: ['PATCH', 'DELETE'],
        root: false,
      },
      {
        specific: '/client/segments/preview',
        general: '/client/segments/{id}',
        gaps: ['GET', 'HEAD', 'PATCH', 'DELETE'],
        root: false,
      },
    ]);
  });

  // Every ordered pair of route paths: where a request path matches both, the more specific one alone answers it.
  const paths = [...new Set(routes.map((r) => `${r.root ? 'root' : 'api'} ${r.path}`))];
  const pairs = paths.flatMap((a) => paths.filter((b) => b !== a).map((b) => [a, b] as const));
  it.each(pairs)('%s vs %s: a request the first path is written for never reaches the second', (a, b) => {
    const [baseA, pathA] = a.split(' ') as [string, string];
    const [baseB, pathB] = b.split(' ') as [string, string];
    const table = baseA === 'root' ? routes.filter((r) => r.root) : api;
    const own = table.filter((r) => r.path === pathA);
    const full = (p: string) => (baseA === 'root' ? p : `/api/v1${p}`);
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      const match = router.match(method, full(concrete(pathA)));
      if (match.kind === 'matched') {
        expect(match.route.path, `${method} ${pathA}`).toBe(pathA);
        if (baseA === baseB) expect(match.route.path).not.toBe(pathB);
      } else {
        const allow = [...new Set(own.flatMap((r) => (r.method === 'GET' ? ['GET', 'HEAD'] : [r.method])))];
        expect(match, `${method} ${pathA}`).toEqual({
          kind: 'method_not_allowed',
          allow: expect.arrayContaining(allow),
        });
        expect((match as { allow: string[] }).allow).toHaveLength(allow.length);
      }
    }
  });

  it.each(fallbackRoutes(routes))(
    "answers $method $path with 405 and the literal path's Allow (the AWS fallback gets this route)",
    ({ method, path }) => {
      // A GET route takes HEAD too.
      const allow = api
        .filter((r: RouteDefinition) => r.path === path)
        .flatMap((r) => (r.method === 'GET' ? ['GET', 'HEAD'] : [r.method]));
      expect(router.match(method, `/api/v1${path}`)).toEqual({ kind: 'method_not_allowed', allow });
    },
  );
});
