import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { handler } from '../../../functions/fallback/unmatched.js';
import { withoutBodyForHead } from '../../../shared/http/chain.js';

/** The payload-2.0 event API Gateway gives the `$default` route. */
const event = (method: string, rawPath: string): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString: '',
    headers: {},
    isBase64Encoded: false,
    requestContext: {
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '203.0.113.1', userAgent: 'curl' },
      requestId: 'req-9',
      routeKey: '$default',
    },
  }) as unknown as APIGatewayProxyEventV2;

describe('the $default function (functions/fallback/unmatched.ts)', () => {
  it('answers a known path with another method 405, Allow from the real route table', async () => {
    const reply = await handler(event('PUT', '/api/v1/client/contacts'));

    expect(reply.statusCode).toBe(405);
    expect(reply.headers?.['allow']).toBe('GET, HEAD, POST');
    expect(JSON.parse(reply.body!)).toMatchObject({
      success: false,
      errors: [{ condition: 'method_not_allowed', key: 'method' }],
      meta: { request_id: 'req-9' },
    });
  });

  it.each([
    ['GET', '/api/v1/client/contacts/bulk'],
    ['PATCH', '/api/v1/client/contacts/bulk'],
    ['DELETE', '/api/v1/client/email-templates/list'],
  ])("answers %s %s (routed here beside its {id} route) 405 with the literal path's Allow", async (method, path) => {
    const reply = await handler(event(method, path));

    expect(reply.statusCode).toBe(405);
    expect(reply.headers?.['allow']).toBe('POST');
    expect(JSON.parse(reply.body!).errors).toEqual([
      { condition: 'method_not_allowed', key: 'method', error: `${method} is not allowed on ${path}; allowed: POST` },
    ]);
  });

  it('answers the public links too, and leaves the local-only routes unknown', async () => {
    expect((await handler(event('DELETE', '/u/some-token'))).headers?.['allow']).toBe('GET, HEAD, POST');
    expect((await handler(event('GET', '/api/v1/dev/ses-events'))).statusCode).toBe(404);
  });

  it('answers an unknown path with the 404 envelope, and HEAD without a body', async () => {
    const reply = await handler(event('GET', '/api/v1/no/such/thing'));
    const head = await handler(event('HEAD', '/api/v1/no/such/thing'));

    expect(reply.statusCode).toBe(404);
    expect(JSON.parse(reply.body!).errors).toEqual([
      { condition: 'not_found', key: 'route', error: 'No route for GET /api/v1/no/such/thing' },
    ]);
    expect(head).toEqual({ statusCode: 404, headers: expect.objectContaining({ 'content-type': expect.any(String) }) });
  });
});

describe('withoutBodyForHead', () => {
  it('keeps status and headers of a HEAD answer and drops its body; other methods are untouched', async () => {
    const inner = async () => ({
      statusCode: 200,
      headers: { 'content-type': 'application/json', etag: '"1"' },
      body: '{"a":1}',
    });
    const wrapped = withoutBodyForHead(inner);

    expect(await wrapped(event('HEAD', '/api/v1/health'), {} as never)).toEqual({
      statusCode: 200,
      headers: { 'content-type': 'application/json', etag: '"1"' },
    });
    expect(await wrapped(event('GET', '/api/v1/health'), {} as never)).toMatchObject({ body: '{"a":1}' });
  });
});
