import { request as httpRequest } from 'node:http';
import { describe, expect, inject, it } from 'vitest';

/** One request with a `Host` header of our choosing (fetch does not let a caller set it). */
function requestWithHost(
  url: string,
  host: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
) {
  const target = new URL(url);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        hostname: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: init.method ?? 'GET',
        headers: { ...init.headers, host },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('the local servers answer only their own host names (DNS rebinding)', () => {
  const api = new URL(inject('baseUrl'));
  const ses = new URL(inject('sesUrl'));

  it.each([
    ['a rebinding name with the port', (port: string) => `rebind.attacker.example:${port}`],
    ['a rebinding name without a port', () => 'rebind.attacker.example'],
    ['localhost on another port', () => 'localhost:1'],
    ['a subdomain of localhost', (port: string) => `evil.localhost.attacker.example:${port}`],
  ])('the API refuses %s with 421 before any route runs', async (_what, hostOf) => {
    const health = await requestWithHost(`${api.origin}/api/v1/health`, hostOf(api.port));
    const dev = await requestWithHost(`${api.origin}/api/v1/dev/ses-events`, hostOf(api.port), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });

    expect(health.status).toBe(421);
    expect(JSON.parse(health.body)).toMatchObject({
      success: false,
      errors: [{ condition: 'malformed', key: 'host' }],
    });
    expect(dev.status).toBe(421);
  });

  it.each([['127.0.0.1'], ['localhost'], ['[::1]']])('the API answers %s with its port', async (name) => {
    const res = await requestWithHost(`${api.origin}/api/v1/health`, `${name}:${api.port}`);
    expect(res.status).toBe(200);
  });

  it('the SES mail viewer refuses another host, and still answers its own', async () => {
    const page = await requestWithHost(`${ses.origin}/`, `rebind.attacker.example:${ses.port}`);
    const store = await requestWithHost(`${ses.origin}/store`, `rebind.attacker.example:${ses.port}`);
    const own = await requestWithHost(`${ses.origin}/store`, `127.0.0.1:${ses.port}`);
    const named = await requestWithHost(`${ses.origin}/store`, `localhost:${ses.port}`);

    expect(page.status).toBe(421);
    expect(store.status).toBe(421);
    expect(store.body).not.toContain('"emails"');
    expect(own.status).toBe(200);
    expect(named.status).toBe(200);
  });
});
