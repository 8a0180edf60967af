import { describe, expect, inject, it } from 'vitest';
import { checkContract } from './support/api.js';
import { createTestClient } from './support/clients.js';

/** Raw requests to the local runtime (HEAD has no body for `request` to parse); each answer still meets the contract. */
async function send(method: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${inject('baseUrl')}${path}`, { method, headers });
  const text = await response.text();
  await checkContract({
    method,
    path: `/api/v1${path}`,
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text,
  });
  return { status: response.status, headers: response.headers, text };
}

describe('HTTP semantics of the API', () => {
  it.each([
    ['PUT', '/client/contacts', 'GET, HEAD, POST'],
    ['DELETE', '/health', 'GET, HEAD'],
    ['POST', '/client/contacts/7', 'GET, HEAD, PATCH, DELETE'],
    ['GET', '/client/contacts/bulk/csv', 'POST'],
    ['PUT', '/openapi.json', 'GET, HEAD'],
  ])('%s %s is 405 with the envelope and Allow: %s — before any authentication', async (method, path, allow) => {
    const res = await send(method, path);

    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect(JSON.parse(res.text)).toMatchObject({
      success: false,
      data: {},
      errors: [
        {
          condition: 'method_not_allowed',
          key: 'method',
          error: `${method} is not allowed on /api/v1${path}; allowed: ${allow}`,
        },
      ],
    });
  });

  it('answers HEAD on a GET route with its status and headers and no body', async () => {
    const res = await send('HEAD', '/health');

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.text).toBe('');
  });

  it('runs an authenticated GET route for HEAD, with its checks: 200 for a contact, 404 for a missing one, 401 without a key', async () => {
    const { api_key: key } = await createTestClient();
    const created = await fetch(`${inject('baseUrl')}/client/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'head@example.com' }),
    });
    const id = ((await created.json()) as { data: { id: number } }).data.id;

    const found = await send('HEAD', `/client/contacts/${id}`, { authorization: `Bearer ${key}` });
    const missing = await send('HEAD', '/client/contacts/999999999', { authorization: `Bearer ${key}` });
    const anonymous = await send('HEAD', `/client/contacts/${id}`);

    expect([found.status, missing.status, anonymous.status]).toEqual([200, 404, 401]);
    expect([found.text, missing.text, anonymous.text]).toEqual(['', '', '']);
  });

  it('keeps 404 for a path no route has; CORS is off by default, so OPTIONS is a wrong method', async () => {
    const unknown = await send('GET', '/no/such/route');
    const options = await send('OPTIONS', '/health', {
      origin: 'https://app.example.com',
      'access-control-request-method': 'GET',
    });

    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.text).errors).toEqual([
      { condition: 'not_found', key: 'route', error: 'No route for GET /api/v1/no/such/route' },
    ]);
    expect(options.status).toBe(405);
    expect(options.headers.get('access-control-allow-origin')).toBeNull();
  });
});
