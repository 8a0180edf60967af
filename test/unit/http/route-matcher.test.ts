import { describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../../functions/routes.js';
import { RouteMatcher, Router, unmatchedResponse } from '../../../shared/http/route-matcher.js';

const route = (
  method: RouteDefinition['method'],
  path: string,
  extra: Partial<RouteDefinition> = {},
): RouteDefinition => ({
  method,
  path,
  handler: `${method.toLowerCase()}${path.replaceAll('/', '-')}`,
  tableAccess: 'read',
  ...extra,
});

const table: RouteDefinition[] = [
  route('GET', '/health'),
  route('POST', '/client/contacts'),
  route('GET', '/client/contacts'),
  route('GET', '/client/contacts/{id}'),
  route('PATCH', '/client/contacts/{id}'),
  route('DELETE', '/client/contacts/{id}'),
  route('POST', '/client/contacts/bulk'),
  route('GET', '/files/{key+}'),
  route('GET', '/u/{token}', { root: true }),
  route('POST', '/u/{token}', { root: true }),
];

describe('RouteMatcher', () => {
  it('matches the most specific route of the method, decoding path parameters', () => {
    const matcher = new RouteMatcher(table.filter((r) => !r.root));

    expect(matcher.match('POST', '/client/contacts/bulk')).toMatchObject({
      kind: 'matched',
      route: { handler: 'post-client-contacts-bulk' },
    });
    expect(matcher.match('GET', '/client/contacts/bulky')).toMatchObject({
      kind: 'matched',
      route: { handler: 'get-client-contacts-{id}' },
      pathParameters: { id: 'bulky' },
    });
    expect(matcher.match('GET', '/client/contacts/a%40b.co')).toMatchObject({
      kind: 'matched',
      pathParameters: { id: 'a@b.co' },
    });
    expect(matcher.match('GET', '/files/a/b/c')).toMatchObject({ kind: 'matched', pathParameters: { key: 'a/b/c' } });
    expect(matcher.match('GET', '/client/contacts/%E0%A4%A')).toEqual({ kind: 'malformed', parameter: 'id' });
  });

  it('serves HEAD with the GET route of the path', () => {
    const matcher = new RouteMatcher(table);

    expect(matcher.match('HEAD', '/client/contacts/7')).toMatchObject({
      kind: 'matched',
      route: { method: 'GET', path: '/client/contacts/{id}' },
    });
    expect(matcher.match('HEAD', '/client/contacts/8')).toMatchObject({ kind: 'matched', route: { method: 'GET' } });
  });

  it.each([
    ['PUT', '/client/contacts', ['GET', 'HEAD', 'POST']],
    ['DELETE', '/health', ['GET', 'HEAD']],
    ['PUT', '/client/contacts/7', ['GET', 'HEAD', 'PATCH', 'DELETE']],
    // A literal path never falls through to {id}: only its own methods, whatever the method asked.
    ['PUT', '/client/contacts/bulk', ['POST']],
    ['GET', '/client/contacts/bulk', ['POST']],
    ['HEAD', '/client/contacts/bulk', ['POST']],
    ['PATCH', '/client/contacts/bulk', ['POST']],
    ['DELETE', '/client/contacts/bulk', ['POST']],
    ['HEAD', '/client/contacts/bulk/x', undefined],
  ])('answers %s %s with the methods the path takes: %j', (method, path, allow) => {
    const matcher = new RouteMatcher(table.filter((r) => !r.root));

    expect(matcher.match(method, path)).toEqual(allow ? { kind: 'method_not_allowed', allow } : { kind: 'not_found' });
  });

  it('adds the extra methods (OPTIONS with CORS on) to a known path only', () => {
    const matcher = new RouteMatcher(table, ['OPTIONS']);

    expect(matcher.match('PUT', '/health')).toEqual({ kind: 'method_not_allowed', allow: ['GET', 'HEAD', 'OPTIONS'] });
    expect(matcher.match('OPTIONS', '/client/contacts/bulk')).toEqual({
      kind: 'method_not_allowed',
      allow: ['POST', 'OPTIONS'],
    });
    expect(matcher.match('PUT', '/nowhere')).toEqual({ kind: 'not_found' });
  });
});

describe('Router', () => {
  const router = new Router(table, { basePath: '/api/v1' });

  it('matches API routes below the base path and root routes at the root only', () => {
    expect(router.match('GET', '/api/v1/health')).toMatchObject({ kind: 'matched', route: { path: '/health' } });
    expect(router.match('GET', '/health')).toEqual({ kind: 'not_found' });
    expect(router.match('POST', '/u/tok')).toMatchObject({
      kind: 'matched',
      route: { path: '/u/{token}', method: 'POST' },
    });
    expect(router.match('GET', '/api/v1/u/tok')).toEqual({ kind: 'not_found' });
    expect(router.match('DELETE', '/u/tok')).toEqual({ kind: 'method_not_allowed', allow: ['GET', 'HEAD', 'POST'] });
  });
});

describe('unmatchedResponse', () => {
  it('answers 405 with the envelope and an Allow header', () => {
    const reply = unmatchedResponse(
      { kind: 'method_not_allowed', allow: ['GET', 'HEAD'] },
      'DELETE',
      '/api/v1/health',
      'req-1',
    );

    expect(reply.statusCode).toBe(405);
    expect(reply.headers).toMatchObject({
      allow: 'GET, HEAD',
      'content-type': expect.stringContaining('application/json'),
    });
    expect(JSON.parse(reply.body!)).toEqual({
      data: {},
      errors: [
        {
          condition: 'method_not_allowed',
          key: 'method',
          error: 'DELETE is not allowed on /api/v1/health; allowed: GET, HEAD',
        },
      ],
      message: 'Method Not Allowed',
      meta: { request_id: 'req-1' },
      success: false,
    });
  });

  it('answers an unknown path 404 not_found on key route, without Allow', () => {
    const reply = unmatchedResponse({ kind: 'not_found' }, 'GET', '/api/v1/nope', 'req-2');

    expect(reply.statusCode).toBe(404);
    expect(reply.headers).not.toHaveProperty('allow');
    expect(JSON.parse(reply.body!).errors).toEqual([
      { condition: 'not_found', key: 'route', error: 'No route for GET /api/v1/nope' },
    ]);
  });
});
