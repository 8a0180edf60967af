import { describe, expect, inject, it } from 'vitest';
import { request } from './support/api.js';
import { runAdmin } from './support/admin-cli.js';
import { createTestClient } from './support/clients.js';

const store = () => ({ AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'), TABLE_NAME: inject('tableName') });

/** Whole seconds (windows) an interval touches: a flood straddling a boundary may be admitted once per window. */
const windowsSpanned = (startMs: number, endMs: number) => Math.floor(endMs / 1000) - Math.floor(startMs / 1000) + 1;

describe('per-client rate limits, over HTTP against DynamoDB Local', { timeout: 60_000 }, () => {
  it('answers client A’s flood past its limit with 429s and their headers, while client B’s requests of the same seconds all succeed', async () => {
    // Prepare: A's limit lowered by the operator (before its key's first request: the auth cache holds the client 60 s).
    const a = await createTestClient('growth', { planRateLimits: true });
    const b = await createTestClient('growth', { planRateLimits: true });
    const set = await runAdmin(['set-rate-limit', '--client', String(a.id), '--api', '5'], store());
    expect(set.code).toBe(0);
    expect(set.lines[0]).toMatchObject({
      id: a.id,
      rate_limits: { api: 5, events: 100 },
      rate_limit_override: { api_requests_per_second: 5 },
    });

    // Act: 40 requests of A at once, and B's 10 requests in the same seconds.
    const startedAt = Date.now();
    const [flood, others] = await Promise.all([
      Promise.all(Array.from({ length: 40 }, () => request('GET', '/client/contacts', { key: a.api_key }))),
      Promise.all(Array.from({ length: 10 }, () => request('GET', '/client/contacts', { key: b.api_key }))),
    ]);
    const endedAt = Date.now();

    // Assess: B untouched.
    expect(others.map((r) => r.status)).toEqual(Array(10).fill(200));
    for (const r of others) expect(r.headers['ratelimit-policy']).toBe('"api";q=50;w=1');
    // A: at most its limit admitted per window the flood touched, the rest refused with the envelope and headers.
    const admitted = flood.filter((r) => r.status === 200);
    const refused = flood.filter((r) => r.status === 429);
    expect(admitted.length + refused.length).toBe(40);
    expect(admitted.length).toBeGreaterThanOrEqual(1);
    expect(admitted.length).toBeLessThanOrEqual(5 * windowsSpanned(startedAt, endedAt));
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.body).toMatchObject({
        success: false,
        data: {},
        errors: [{ condition: 'rate_limited', key: 'request' }],
      });
      expect(r.headers).toMatchObject({
        'ratelimit-policy': '"api";q=5;w=1',
        ratelimit: '"api";r=0;t=1',
        'retry-after': '1',
      });
    }
    for (const r of admitted) expect(r.headers['ratelimit']).toMatch(/^"api";r=[0-4];t=1$/);
  });

  it('counts POST /client/events under the events policy, apart from the rest of the API', async () => {
    const client = await createTestClient('starter', { planRateLimits: true });

    const event = await request('POST', '/client/events', {
      key: client.api_key,
      body: { type: 'signup', email: 'rate@example.com' },
    });
    const read = await request('PATCH', '/client/settings', {
      key: client.api_key,
      body: { timezone: 'Europe/Paris' },
    });

    expect(event.status).toBe(202);
    expect(event.headers['ratelimit-policy']).toBe('"events";q=50;w=1');
    expect(event.headers['ratelimit']).toBe('"events";r=49;t=1');
    expect(read.headers['ratelimit-policy']).toBe('"api";q=25;w=1');
    expect(read.headers['ratelimit']).toMatch(/^"api";r=24;t=1$/);
    expect(read.body.data.client.subscription_plan).toMatchObject({
      api_requests_per_second: 25,
      event_requests_per_second: 50,
    });
  });

  it('refuses a malformed override without touching the client', async () => {
    const client = await createTestClient();

    const run = await runAdmin(['set-rate-limit', '--client', String(client.id), '--api', '0'], store());

    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--api must be an integer ≥ 1/);
  });
});
