import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler as getStatsRoute } from '../../../functions/http/stats-get.js';
import { handler as getWorkflowStatsRoute } from '../../../functions/http/workflows-stats.js';
import { setContainer } from '../../../shared/composition/container.js';
import { createTestClient } from '../support/clients.js';
import { engineContainer } from '../support/engine-components.js';

/**
 * What GET /client/stats costs in DynamoDB requests ("the stats read for 90 days: one request"): the real
 * route handler on the real DynamoDB adapters (DynamoDB Local), counted by the container's RequestCounter. Its
 * authentication is cached by a first call, as on a warm container; what is left is the rate-limit count every API
 * request makes and the stats read: one Query, for a client on the default plan as for the largest (the day rows are
 * a projection that writes a batch's sums, so no client's rows need spreading over partitions).
 */
// One info line per request would bury the report (INTEGRATION_LOG_LEVEL shows them).
vi.hoisted(() => {
  process.env['POWERTOOLS_LOG_LEVEL'] = process.env['INTEGRATION_LOG_LEVEL'] ?? 'SILENT';
});

const context = {
  awsRequestId: 'aws-req',
  functionName: 'stats',
  getRemainingTimeInMillis: () => 10_000,
} as unknown as Context;

const RANGE = { from: '2030-01-01', to: '2030-03-31' }; // 90 days

const get = (path: string, key: string, query: Record<string, string>): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: `GET ${path}`,
    rawPath: path,
    rawQueryString: new URLSearchParams(query).toString(),
    queryStringParameters: query,
    headers: { authorization: `Bearer ${key}` },
    requestContext: { requestId: 'req-1', http: { method: 'GET', path, sourceIp: '203.0.113.7' } },
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

afterEach(() => setContainer(undefined));

async function measuredRead(plan: 'free' | 'scale', route: 'stats' | 'workflow') {
  const container = engineContainer({});
  setContainer(container);
  const client = await createTestClient(plan);
  const call = () =>
    route === 'stats'
      ? getStatsRoute(get('/api/v1/client/stats', client.api_key, RANGE), context)
      : getWorkflowStatsRoute(
          { ...get('/api/v1/client/workflows/1/stats', client.api_key, RANGE), pathParameters: { workflow_id: '1' } },
          context,
        );
  // Warm: the key and the client are read once, then cached (AUTH_CACHE_TTL_SECONDS).
  expect(((await call()) as APIGatewayProxyStructuredResultV2).statusCode).toBe(200);
  const { result, usage } = await container.requestCounter.measure(call);
  expect((result as APIGatewayProxyStructuredResultV2).statusCode).toBe(200);
  return usage;
}

describe('GET /client/stats: DynamoDB requests of a 90-day read', () => {
  it('reads a default (free plan) client’s 90 days with one Query', async () => {
    const usage = await measuredRead('free', 'stats');
    expect(usage.by_command).toEqual({ UpdateItemCommand: 1, QueryCommand: 1 });
  });

  it('reads one workflow of a default client with one Query too', async () => {
    const usage = await measuredRead('free', 'workflow');
    expect(usage.by_command).toEqual({ UpdateItemCommand: 1, QueryCommand: 1 });
  });

  it('reads the largest client (scale plan) with one Query too', async () => {
    const usage = await measuredRead('scale', 'stats');
    expect(usage.by_command).toEqual({ UpdateItemCommand: 1, QueryCommand: 1 });
    expect(usage.waves).toBe(2); // the rate-limit count, then the Query
  });
});
