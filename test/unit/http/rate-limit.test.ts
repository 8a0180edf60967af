import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from '../../../shared/validation/zod.js';
import { memoryClientAdapters } from '../../../shared/adapters/memory/client-stores.js';
import { createContainer, setContainer } from '../../../shared/composition/container.js';
import { loadConfig } from '../../../shared/config.js';
import { createClient } from '../../../shared/domain/clients/create-client.js';
import { setClientRateLimits } from '../../../shared/domain/rate-limits/set-rate-limits.js';
import { jsonApi } from '../../../shared/http/api.js';
import { ok } from '../../../shared/http/envelope.js';
import { notFound } from '../../../shared/errors.js';

const context = {
  awsRequestId: 'aws-req',
  functionName: 'test',
  getRemainingTimeInMillis: () => 1000,
} as unknown as Context;

const event = (key: string, body = '{"n":1}'): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: 'POST /api/v1/things',
    rawPath: '/api/v1/things',
    rawQueryString: '',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
    requestContext: { requestId: 'req-1', http: { method: 'POST', path: '/api/v1/things' } } as never,
    isBase64Encoded: false,
  }) as APIGatewayProxyEventV2;

const Body = z.object({ n: z.int() });
const things = jsonApi({ summary: 'Things', body: Body, responses: { 200: Body } }, [], async ({ body }) => ok(body));
const ingest = jsonApi(
  { summary: 'Ingest', body: Body, responses: { 200: Body }, rateLimit: 'events' },
  [],
  async ({ body }) => ok(body),
);
const missing = jsonApi({ summary: 'Missing', responses: { 200: Body }, errors: [404] }, [], async () => {
  throw notFound('id', 'Thing not found');
});

let adapters: ReturnType<typeof memoryClientAdapters>;
let flooder = '';
let other = '';

beforeEach(async () => {
  adapters = memoryClientAdapters();
  const a = await createClient(adapters, { email: 'a@acme.test', name: 'A', plan: 'growth' });
  const b = await createClient(adapters, { email: 'b@acme.test', name: 'B', plan: 'growth' });
  await setClientRateLimits(adapters, a.id, { api_requests_per_second: 2, event_requests_per_second: 3 });
  flooder = a.api_key;
  other = b.api_key;
  setContainer(createContainer({ config: loadConfig({ AUTH_CACHE_TTL_SECONDS: '0' }), overrides: adapters }));
});
afterEach(() => setContainer(undefined));

describe('per-client rate limit on authenticated routes', () => {
  it('puts the policy and the client’s standing on every answer, and a 429 with Retry-After past the limit', async () => {
    // Act
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await things(event(flooder), context));

    // Assess
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 429]);
    expect(answers[0]!.headers).toMatchObject({ 'ratelimit-policy': '"api";q=2;w=1', ratelimit: '"api";r=1;t=1' });
    expect(answers[0]!.headers).not.toHaveProperty('retry-after');
    expect(answers[2]!.headers).toMatchObject({
      'ratelimit-policy': '"api";q=2;w=1',
      ratelimit: '"api";r=0;t=1',
      'retry-after': '1',
    });
    expect(JSON.parse(answers[2]!.body as string)).toEqual({
      data: {},
      errors: [
        {
          condition: 'rate_limited',
          error: 'Over the limit of 2 requests a second for this client; retry after 1 s',
          key: 'request',
        },
      ],
      message: 'Too many requests',
      meta: { request_id: 'req-1' },
      success: false,
    });
  });

  it('leaves another client’s requests in the same second alone', async () => {
    for (let i = 0; i < 5; i++) await things(event(flooder), context);

    const answer = await things(event(other), context);

    expect(answer.statusCode).toBe(200);
    expect(answer.headers).toMatchObject({ 'ratelimit-policy': '"api";q=50;w=1', ratelimit: '"api";r=49;t=1' });
  });

  it('counts the ingest route under the events policy, apart from the rest of the API', async () => {
    for (let i = 0; i < 5; i++) await things(event(flooder), context);

    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await ingest(event(flooder), context));

    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 429]);
    expect(answers[0]!.headers).toMatchObject({
      'ratelimit-policy': '"events";q=3;w=1',
      ratelimit: '"events";r=2;t=1',
    });
  });

  it('carries the fields on error answers too, and counts a request whose body is refused', async () => {
    const refused = await things(event(flooder, '{"n":"x"}'), context);
    const notThere = await missing(event(flooder, ''), context);

    expect(refused.statusCode).toBe(422);
    expect(refused.headers).toMatchObject({ ratelimit: '"api";r=1;t=1' });
    expect(notThere.statusCode).toBe(404);
    expect(notThere.headers).toMatchObject({ ratelimit: '"api";r=0;t=1' });
  });

  it('does not count or label a request that fails authentication', async () => {
    const answer = await things(event('els_' + 'x'.repeat(40)), context);

    expect(answer.statusCode).toBe(401);
    expect(answer.headers).not.toHaveProperty('ratelimit-policy');
    expect(adapters.rateCounter.writes).toBe(0);
  });

  it('answers normally, with the policy but no count, when the counter cannot be reached', async () => {
    adapters.rateCounter.failWith = new Error('connect ECONNREFUSED');

    const answer = await things(event(flooder), context);

    expect(answer.statusCode).toBe(200);
    expect(answer.headers).toMatchObject({ 'ratelimit-policy': '"api";q=2;w=1' });
    expect(answer.headers).not.toHaveProperty('ratelimit');
  });
});
