import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, inject, it } from 'vitest';
import { esbuildOptions } from '../../infra/bundling.js';
import { entryOf } from '../../infra/node-function.js';
import { request } from './support/api.js';
import { createTestClient } from './support/clients.js';

/**
 * The bundles CDK deploys carry the AWS SDK clients they use (infra/bundling.ts). These tests build a
 * function exactly so, load it in a Node process of its own, as Lambda does, with only the settings a deployed
 * function gets, and invoke its handler against the suite's DynamoDB Local: the bundled SDK signs, sends and parses.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'deployed-bundle-'));

async function deployedBundle(kind: 'http', handler: string): Promise<string> {
  const outfile = path.join(dir, handler, 'index.mjs');
  await build(esbuildOptions(entryOf(kind, handler), outfile));
  return outfile;
}

/** Runs the bundle's handler once with `event` in a fresh Node process and returns what it answered. */
function invoke(bundle: string, event: object): { statusCode: number; body: any } {
  const script = `
    const { handler } = await import(${JSON.stringify(pathToFileURL(bundle).href)});
    const context = { awsRequestId: 'deployed-bundle-test', functionName: 'test', getRemainingTimeInMillis: () => 10000 };
    const result = await handler(JSON.parse(process.env.EVENT), context);
    process.stdout.write('\\n' + JSON.stringify(result));`;
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: {
      PATH: process.env['PATH'] ?? '',
      EVENT: JSON.stringify(event),
      AWS_REGION: 'us-east-1',
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
      TABLE_NAME: inject('tableName'),
      POWERTOOLS_LOG_LEVEL: 'ERROR',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
  });
  expect(out.status, out.stderr).toBe(0);
  const result = JSON.parse(out.stdout.trim().split('\n').pop()!) as { statusCode: number; body: string };
  return { statusCode: result.statusCode, body: JSON.parse(result.body) };
}

/** An API Gateway HTTP API (payload 2.0) request. */
function apiEvent(method: string, routeKey: string, rawPath: string, options: { body?: object; key?: string } = {}) {
  return {
    version: '2.0',
    routeKey: `${method} ${routeKey}`,
    rawPath,
    rawQueryString: '',
    headers: {
      'content-type': 'application/json',
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
    },
    requestContext: {
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
      requestId: 'deployed-bundle-test',
      routeKey: `${method} ${routeKey}`,
      stage: '$default',
      timeEpoch: Date.now(),
    },
    ...(options.body ? { body: JSON.stringify(options.body), isBase64Encoded: false } : {}),
  };
}

describe('a deployed bundle, its AWS SDK bundled in', () => {
  it('health reads the table', { timeout: 60_000 }, async () => {
    const bundle = await deployedBundle('http', 'health');

    const answer = invoke(bundle, apiEvent('GET', '/api/v1/health', '/api/v1/health'));

    expect(answer).toMatchObject({ statusCode: 200, body: { success: true, data: { status: 'ok' } } });
  });

  it('contacts-create authenticates with an API key and writes a contact in one transaction', {
    timeout: 60_000,
  }, async () => {
    // Prepare
    const client = await createTestClient();
    const bundle = await deployedBundle('http', 'contacts-create');
    const email = `bundle-${Date.now()}@example.com`;

    // Act
    const answer = invoke(
      bundle,
      apiEvent('POST', '/api/v1/client/contacts', '/api/v1/client/contacts', { key: client.api_key, body: { email } }),
    );

    // Assess: created by the bundle, read back through the running service
    expect(answer).toMatchObject({ statusCode: 201, body: { success: true, data: { email } } });
    const read = await request('GET', `/client/contacts/${answer.body.data.id}`, { key: client.api_key });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: answer.body.data.id, email });
  });

  it('answers a conflicting create 409 from the transaction the SDK cancelled', { timeout: 60_000 }, async () => {
    // Prepare
    const client = await createTestClient();
    const bundle = await deployedBundle('http', 'contacts-create');
    const email = `bundle-twice-${Date.now()}@example.com`;
    const create = () =>
      invoke(
        bundle,
        apiEvent('POST', '/api/v1/client/contacts', '/api/v1/client/contacts', {
          key: client.api_key,
          body: { email },
        }),
      );
    expect(create().statusCode).toBe(201);

    // Act
    const again = create();

    // Assess: TransactionCanceledException recognised inside the bundle (by class, as the adapters check it)
    expect(again).toMatchObject({ statusCode: 409, body: { errors: [{ condition: 'unique', key: 'email' }] } });
  });
});
