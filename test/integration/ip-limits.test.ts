import { request as httpRequest } from 'node:http';
import { describe, expect, inject, it } from 'vitest';
import { DEFAULT_ANONYMOUS_REQUESTS_PER_MINUTE } from '../../shared/domain/rate-limits/ip-limit.js';
import { createTestClient } from './support/clients.js';

/**
 * One request from a loopback address of our choosing: the local server takes the client's IP from the socket
 * (X-Forwarded-For is not trusted), and every 127/8 address is this machine's own, so each is a distinct caller.
 */
function from(localAddress: string, path: string, headers: Record<string, string> = {}) {
  const base = new URL(inject('baseUrl'));
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }>(
    (resolve, reject) => {
      const req = httpRequest(
        { hostname: base.hostname, port: base.port, path: `${base.pathname}${path}`, localAddress, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: text.startsWith('{') ? JSON.parse(text) : text,
            });
          });
        },
      );
      req.on('error', reject);
      req.end();
    },
  );
}

/** The test needs one fixed window: start it early in a minute, so its requests all fall in the same one. */
async function atStartOfAMinute(): Promise<void> {
  const second = new Date().getUTCSeconds();
  if (second > 40) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
}

const LIMIT = DEFAULT_ANONYMOUS_REQUESTS_PER_MINUTE;
/** A distinct loopback address per test run, so a rerun within the minute does not meet its own window. */
const address = (n: number) =>
  `127.${Math.floor(Math.random() * 200) + 20}.${Math.floor(Math.random() * 250) + 1}.${n}`;

describe('per-IP limit of anonymous requests, over HTTP', { timeout: 120_000 }, () => {
  it('answers one IP’s anonymous request past the limit 429 with Retry-After, while another IP and an authenticated tenant on the same IP are served', async () => {
    // Prepare
    const flooder = address(1);
    const client = await createTestClient();
    await atStartOfAMinute();

    // Act: the limit's worth of anonymous requests, then one more.
    const admitted = [];
    for (let i = 0; i < LIMIT; i++) admitted.push(await from(flooder, '/health'));
    const over = await from(flooder, '/health');
    const page = await from(flooder, '/docs');
    const otherIp = await from(address(2), '/health');
    const tenant = await from(flooder, '/client/settings', { authorization: `Bearer ${client.api_key}` });

    // Assess
    expect(admitted.map((r) => r.status)).toEqual(Array(LIMIT).fill(200));
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({
      success: false,
      data: {},
      errors: [{ condition: 'rate_limited', key: 'request' }],
      message: 'Too many requests',
    });
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(over.headers['ratelimit-policy']).toBe(`"ip";q=${LIMIT};w=60`);
    expect(page.status).toBe(429);
    expect(otherIp.status).toBe(200);
    expect(tenant.status).toBe(200);
  });

  it('counts requests with a bad key against their IP: past the limit they answer 429, not 401', async () => {
    const prober = address(3);
    await atStartOfAMinute();
    const bad = { authorization: 'Bearer els_0000000000000000000000000000000000000000' };

    const answers = [];
    for (let i = 0; i <= LIMIT; i++) answers.push(await from(prober, '/client/contacts', bad));

    expect(answers.slice(0, LIMIT).map((r) => r.status)).toEqual(Array(LIMIT).fill(401));
    expect(answers[LIMIT]!.status).toBe(429);
    expect(answers[LIMIT]!.headers['retry-after']).toMatch(/^\d+$/);
  });
});
