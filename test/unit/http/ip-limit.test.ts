import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from '../../../shared/validation/zod.js';
import { memoryClientAdapters } from '../../../shared/adapters/memory/client-stores.js';
import { MemoryIpRateCounter } from '../../../shared/adapters/memory/ip-rate-counter.js';
import { createContainer, setContainer } from '../../../shared/composition/container.js';
import { loadConfig } from '../../../shared/config.js';
import { createClient } from '../../../shared/domain/clients/create-client.js';
import { jsonApi } from '../../../shared/http/api.js';
import { ok } from '../../../shared/http/envelope.js';
import { publicApi } from '../../../shared/http/public-api.js';
import { publicPage } from '../../../shared/http/public-page.js';

const context = {
  awsRequestId: 'aws-req',
  functionName: 'test',
  getRemainingTimeInMillis: () => 1000,
} as unknown as Context;

const event = (sourceIp: string, headers: Record<string, string> = {}): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: 'GET /api/v1/things',
    rawPath: '/api/v1/things',
    rawQueryString: '',
    headers,
    requestContext: { requestId: 'req-1', http: { method: 'GET', path: '/api/v1/things', sourceIp } } as never,
    isBase64Encoded: false,
  }) as APIGatewayProxyEventV2;

const Out = z.object({ n: z.int() });
const health = publicApi({ summary: 'Health', responses: { 200: Out } }, [], async () => ok({ n: 1 }));
const page = publicPage({ summary: 'Page', pages: { 200: 'A page' } }, [], async () => ({
  status: 200 as const,
  html: '<p>hi</p>',
}));
const things = jsonApi({ summary: 'Things', responses: { 200: Out } }, [], async () => ok({ n: 2 }));

let ipCounter: MemoryIpRateCounter;
let key = '';

beforeEach(async () => {
  const adapters = memoryClientAdapters();
  ipCounter = new MemoryIpRateCounter();
  key = (await createClient(adapters, { email: 'a@acme.test', name: 'A', plan: 'growth' })).api_key;
  setContainer(
    createContainer({
      config: loadConfig({ AUTH_CACHE_TTL_SECONDS: '0', ANONYMOUS_REQUESTS_PER_MINUTE: '3' }),
      overrides: { ...adapters, ipRateCounter: ipCounter },
    }),
  );
});
afterEach(() => setContainer(undefined));

describe('per-IP limit of requests no client answers for', () => {
  it('answers the 4th anonymous request of one IP a minute 429 with Retry-After and the "ip" policy; another IP is served', async () => {
    // Act
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await health(event('198.51.100.7'), context));
    const other = await health(event('198.51.100.8'), context);

    // Assess
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 429]);
    expect(answers[3]!.headers).toMatchObject({
      'ratelimit-policy': '"ip";q=3;w=60',
      ratelimit: expect.stringMatching(/^"ip";r=0;t=\d+$/),
      'retry-after': expect.stringMatching(/^\d+$/),
    });
    expect(JSON.parse(answers[3]!.body as string)).toMatchObject({
      success: false,
      data: {},
      errors: [{ condition: 'rate_limited', key: 'request' }],
    });
    expect(other.statusCode).toBe(200);
  });

  it('counts public pages against the same budget', async () => {
    for (let i = 0; i < 3; i++) expect((await page(event('198.51.100.9'), context)).statusCode).toBe(200);
    expect((await page(event('198.51.100.9'), context)).statusCode).toBe(429);
  });

  it('never counts an authenticated request, whatever its IP', async () => {
    for (let i = 0; i < 10; i++)
      expect((await things(event('198.51.100.7', { authorization: `Bearer ${key}` }), context)).statusCode).toBe(200);
    expect(ipCounter.writes).toBe(0);
  });

  it('counts failed credentials: past the limit a bad key answers 429, and the same IP’s valid key still works', async () => {
    const bad = { authorization: 'Bearer els_0000000000000000000000000000000000000000' };
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await things(event('198.51.100.7', bad), context));
    const valid = await things(event('198.51.100.7', { authorization: `Bearer ${key}` }), context);
    const missing = await things(event('198.51.100.7'), context);

    expect(answers.map((a) => a.statusCode)).toEqual([401, 401, 401, 429, 429, 429]);
    expect(answers[5]!.headers).toMatchObject({
      'ratelimit-policy': '"ip";q=3;w=60',
      'retry-after': expect.stringMatching(/^\d+$/),
    });
    expect(missing.statusCode).toBe(429);
    // Once this container saw the address over its limit, further failures cost no write.
    expect(ipCounter.writes).toBe(4);
    expect(valid.statusCode).toBe(200);
  });
});
