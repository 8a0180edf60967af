import type { AddressInfo } from 'node:net';
import { request as httpRequest, type Server } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../../functions/routes.js';
import { createLocalServer } from '../../../local/server.js';
import { corsPolicy } from '../../../shared/http/cors.js';

const routes: RouteDefinition[] = [
  { method: 'GET', path: '/health', handler: 'health', tableAccess: 'read' },
  { method: 'GET', path: '/client/contacts/{id}', handler: 'contacts-get', tableAccess: 'read' },
  { method: 'GET', path: '/client/contacts/export', handler: 'contacts-export', tableAccess: 'read' },
  { method: 'POST', path: '/client/contacts', handler: 'contacts-create', tableAccess: 'readWrite' },
  { method: 'POST', path: '/client/contacts/import-csv', handler: 'contacts-import-csv', tableAccess: 'readWrite' },
  { method: 'GET', path: '/boom', handler: 'boom', tableAccess: 'read' },
  { method: 'GET', path: '/raw', handler: 'raw', tableAccess: 'read' },
];

/** A fake handler that records what it received and answers with a fixed structured result. */
let received: { event: APIGatewayProxyEventV2; context: Context; handler: string }[] = [];
const answers: Record<string, (event: APIGatewayProxyEventV2) => unknown> = {
  boom: () => {
    throw new Error('secret internals: table xyz');
  },
  raw: () => ({ hello: 'world' }),
};

let server: Server;
let base: string;

beforeAll(async () => {
  server = createLocalServer({
    routes,
    maxBodyBytes: 1024,
    errorLog: () => undefined,
    loadHandler: async (route) => async (event, context) => {
      received.push({ event, context, handler: route.handler });
      const answer = answers[route.handler];
      if (answer) return answer(event) as APIGatewayProxyStructuredResultV2;
      return {
        statusCode: 200,
        headers: { 'content-type': 'application/json', 'x-handler': route.handler },
        cookies: ['a=1; Path=/', 'b=2'],
        body: JSON.stringify({ ok: true }),
      };
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received = [];
});

const lastEvent = () => received.at(-1)!.event;

function rawGet(url: string, headers: Record<string, string | string[]>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'GET' }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    for (const [name, value] of Object.entries(headers)) req.setHeader(name, value);
    req.once('error', reject);
    req.end();
  });
}

describe('local server: request → API Gateway v2 event', () => {
  it('extracts URL-decoded path parameters and the route key of the matched template', async () => {
    // Act
    const res = await fetch(`${base}/api/v1/client/contacts/${encodeURIComponent('Ada+x@Example.com')}`);
    // Assess
    expect(res.status).toBe(200);
    const event = lastEvent();
    expect(event.pathParameters).toEqual({ id: 'Ada+x@Example.com' });
    expect(event.routeKey).toBe('GET /api/v1/client/contacts/{id}');
    expect(event.requestContext.routeKey).toBe('GET /api/v1/client/contacts/{id}');
    expect(event.rawPath).toBe('/api/v1/client/contacts/Ada%2Bx%40Example.com');
    expect(event.requestContext.http.path).toBe(event.rawPath);
  });

  it('prefers a literal segment over a path parameter', async () => {
    await fetch(`${base}/api/v1/client/contacts/export`);
    expect(received.at(-1)!.handler).toBe('contacts-export');
    expect(lastEvent().pathParameters).toBeUndefined();
  });

  it('keeps the raw query string and joins repeated parameters with a comma', async () => {
    await fetch(`${base}/api/v1/health?status=1&status=4&q=a%20b&empty=`);
    const event = lastEvent();
    expect(event.rawQueryString).toBe('status=1&status=4&q=a%20b&empty=');
    expect(event.queryStringParameters).toEqual({ status: '1,4', q: 'a b', empty: '' });
  });

  it('omits query, path parameters, cookies and body when the request has none', async () => {
    await fetch(`${base}/api/v1/health`);
    const event = lastEvent();
    expect(event.rawQueryString).toBe('');
    expect(event).not.toHaveProperty('queryStringParameters');
    expect(event).not.toHaveProperty('pathParameters');
    expect(event).not.toHaveProperty('cookies');
    expect(event).not.toHaveProperty('body');
    expect(event.isBase64Encoded).toBe(false);
  });

  it('lower-cases header names, joins repeated values with a comma and moves cookies out of the headers', async () => {
    // fetch folds repeated headers into one line; node:http sends each value on its own line.
    await rawGet(`${base}/api/v1/health`, {
      'X-Custom-Thing': ['one', 'two'],
      Authorization: 'Bearer els_abc',
      Cookie: 'session=s1; theme=dark',
      'User-Agent': 'unit-test/1.0',
    });
    const event = lastEvent();
    expect(event.headers['authorization']).toBe('Bearer els_abc');
    expect(event.headers['x-custom-thing']).toBe('one,two');
    expect(Object.keys(event.headers).every((name) => name === name.toLowerCase())).toBe(true);
    expect(event.headers).not.toHaveProperty('cookie');
    expect(event.cookies).toEqual(['session=s1', 'theme=dark']);
    expect(event.requestContext.http.userAgent).toBe('unit-test/1.0');
    expect(event.headers).toMatchObject({
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-proto': 'http',
      'x-forwarded-port': base.split(':').at(-1),
    });
  });

  it('builds the request context API Gateway sends', async () => {
    await fetch(`${base}/api/v1/health`);
    const { event, context } = received.at(-1)!;
    expect(event.version).toBe('2.0');
    expect(event.requestContext).toMatchObject({
      accountId: 'local',
      apiId: 'local',
      domainName: '127.0.0.1',
      stage: '$default',
      http: { method: 'GET', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1' },
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      time: expect.stringMatching(/^\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/),
      timeEpoch: expect.any(Number),
    });
    expect(context.awsRequestId).toBe(event.requestContext.requestId);
    expect(context.functionName).toBe('health');
    expect(context.getRemainingTimeInMillis()).toBeGreaterThan(9_000);
  });

  it('passes a JSON body as text', async () => {
    await fetch(`${base}/api/v1/client/contacts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ email: 'zoë@example.com' }),
    });
    const event = lastEvent();
    expect(event.isBase64Encoded).toBe(false);
    expect(event.body).toBe('{"email":"zoë@example.com"}');
  });

  it('passes a multipart body base64-encoded, byte for byte', async () => {
    const form = new FormData();
    form.append('file', new Blob(['email\na@b.co\n'], { type: 'text/csv' }), 'contacts.csv');
    await fetch(`${base}/api/v1/client/contacts/import-csv`, { method: 'POST', body: form });
    const event = lastEvent();
    expect(event.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(event.isBase64Encoded).toBe(true);
    const decoded = Buffer.from(event.body!, 'base64').toString('utf8');
    expect(decoded).toContain('filename="contacts.csv"');
    expect(decoded).toContain('email\na@b.co\n');
  });
});

describe('local server: handler result → HTTP response', () => {
  it('returns status, headers, cookies and body of a structured result', async () => {
    const res = await fetch(`${base}/api/v1/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-handler')).toBe('health');
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2']);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('answers a plain object result as a 200 JSON body, like API Gateway', async () => {
    const res = await fetch(`${base}/api/v1/raw`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ hello: 'world' });
  });

  it('answers 500 with the envelope and no internals when the handler throws', async () => {
    const res = await fetch(`${base}/api/v1/boom`);
    const text = await res.text();
    expect(res.status).toBe(500);
    expect(text).not.toContain('secret');
    expect(JSON.parse(text)).toEqual({
      data: {},
      errors: [{ condition: 'internal', error: expect.any(String), key: 'request' }],
      message: expect.any(String),
      meta: { request_id: expect.any(String) },
      success: false,
    });
  });
});

describe('local server: unmatched requests', () => {
  it.each([
    ['GET', '/api/v1/no/such/route'],
    ['GET', '/elsewhere'],
    ['OPTIONS', '/api/v1/nowhere'],
  ])('answers %s %s with a 404 not_found envelope for the route', async (method, path) => {
    const res = await fetch(`${base}${path}`, { method });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      data: {},
      errors: [{ condition: 'not_found', error: expect.any(String), key: 'route' }],
      message: 'Not Found',
      meta: { request_id: expect.any(String) },
      success: false,
    });
    expect(received).toHaveLength(0);
  });

  it.each([
    ['DELETE', '/api/v1/health', 'GET, HEAD'],
    ['GET', '/api/v1/client/contacts', 'POST'],
    ['PUT', '/api/v1/client/contacts/7', 'GET, HEAD'],
    // CORS is off on this server: OPTIONS is a method like any other.
    ['OPTIONS', '/api/v1/health', 'GET, HEAD'],
  ])('answers %s %s with 405, the envelope and Allow: %s', async (method, path, allow) => {
    const res = await fetch(`${base}${path}`, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect(await res.json()).toEqual({
      data: {},
      errors: [
        {
          condition: 'method_not_allowed',
          error: `${method} is not allowed on ${path}; allowed: ${allow}`,
          key: 'method',
        },
      ],
      message: 'Method Not Allowed',
      meta: { request_id: expect.any(String) },
      success: false,
    });
    expect(received).toHaveLength(0);
  });

  it("answers HEAD with the GET route's handler, its status and headers, and no body", async () => {
    const res = await fetch(`${base}/api/v1/client/contacts/7`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-handler')).toBe('contacts-get');
    expect(res.headers.get('content-length')).toBe(String(JSON.stringify({ ok: true }).length));
    expect(await res.text()).toBe('');
    expect(lastEvent()).toMatchObject({
      routeKey: 'HEAD /api/v1/client/contacts/{id}',
      requestContext: { http: { method: 'HEAD' } },
    });
  });

  it('answers 413 with the envelope when the body is over the limit', async () => {
    const res = await fetch(`${base}/api/v1/client/contacts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x'.repeat(2048) }),
    });
    expect(res.status).toBe(413);
    const body = (await res.json()) as { errors: unknown[] };
    expect(body.errors).toEqual([{ condition: 'max', error: expect.any(String), key: 'body' }]);
    expect(received).toHaveLength(0);
  });

  it('answers 400 malformed when a path parameter is not valid percent-encoding', async () => {
    const res = await fetch(`${base}/api/v1/client/contacts/%E0%A4%A`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: unknown[] };
    expect(body.errors).toEqual([{ condition: 'malformed', error: expect.any(String), key: 'id' }]);
    expect(received).toHaveLength(0);
  });
});

describe('local server: CORS (on when origins are configured)', () => {
  let corsServer: Server;
  let corsBase: string;
  const ORIGIN = 'https://app.example.com';

  beforeAll(async () => {
    corsServer = createLocalServer({
      routes,
      errorLog: () => undefined,
      cors: corsPolicy([ORIGIN]),
      loadHandler: async (route) => async () => ({
        statusCode: 200,
        headers: { 'x-handler': route.handler },
        body: '{}',
      }),
    });
    await new Promise<void>((resolve) => corsServer.listen(0, '127.0.0.1', resolve));
    corsBase = `http://127.0.0.1:${(corsServer.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => corsServer.close(() => resolve()));
  });

  it('answers a preflight from an allowed origin with 204 and the policy', async () => {
    const res = await fetch(`${corsBase}/api/v1/client/contacts`, {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(Object.fromEntries(res.headers)).toMatchObject({
      'access-control-allow-origin': ORIGIN,
      'access-control-allow-methods': 'GET,HEAD,POST,PUT,PATCH,DELETE',
      'access-control-allow-headers': 'authorization,content-type',
      'access-control-max-age': '600',
      vary: 'Origin',
    });
  });

  it('gives another origin no CORS header, on the preflight and on the answer', async () => {
    const preflight = await fetch(`${corsBase}/api/v1/health`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'GET' },
    });
    const answer = await fetch(`${corsBase}/api/v1/health`, { headers: { origin: 'https://evil.example.com' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("names the allowed origin on the route's answer and on errors, and lists OPTIONS in Allow", async () => {
    const ok = await fetch(`${corsBase}/api/v1/health`, { headers: { origin: ORIGIN } });
    const wrong = await fetch(`${corsBase}/api/v1/health`, { method: 'DELETE', headers: { origin: ORIGIN } });
    expect(ok.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    // A page's script may read the rate limit fields and the request id, as API Gateway exposes them.
    expect(ok.headers.get('access-control-expose-headers')).toBe(
      'ratelimit, ratelimit-policy, retry-after, x-request-id',
    );
    expect(ok.headers.get('x-handler')).toBe('health');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(wrong.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  });
});
