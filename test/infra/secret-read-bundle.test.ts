import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../infra/bundling.js';
import { entryOf } from '../../infra/node-function.js';

/**
 * Secret reads, end to end in a bundle as CDK deploys it: a function given only LINK_SECRET_ARN reads the secret from
 * Secrets Manager (here a stand-in speaking its JSON protocol) on its first request, through the bundled Powertools
 * and SDK client, and not before.
 */
const ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:els/link-AbC123';
const requests: { target: string | undefined; body: unknown }[] = [];
let endpoint = '';

const server = createServer(async (req: IncomingMessage, res) => {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  requests.push({ target: req.headers['x-amz-target'] as string | undefined, body: JSON.parse(body) as unknown });
  res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
  res.end(
    JSON.stringify({
      ARN,
      Name: 'els/link',
      VersionId: 'v1',
      SecretString: 's'.repeat(64),
      VersionStages: ['AWSCURRENT'],
    }),
  );
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Imports the bundle in a Node process of its own; with `event`, invokes its handler once and returns the answer. */
async function run(bundle: string, event?: object): Promise<{ statusCode: number } | undefined> {
  const script = `
    const { handler } = await import(${JSON.stringify(pathToFileURL(bundle).href)});
    const event = process.env.EVENT ? JSON.parse(process.env.EVENT) : undefined;
    const context = { awsRequestId: 'secret-read-test', functionName: 'test', getRemainingTimeInMillis: () => 10000 };
    if (event) process.stdout.write('\\n' + JSON.stringify(await handler(event, context)));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    env: {
      PATH: process.env['PATH'] ?? '',
      ...(event ? { EVENT: JSON.stringify(event) } : {}),
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_ENDPOINT_URL_SECRETS_MANAGER: endpoint,
      LINK_SECRET_ARN: ARN,
      POWERTOOLS_LOG_LEVEL: 'ERROR',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
  });
  return event ? (JSON.parse(stdout.trim().split('\n').pop()!) as { statusCode: number }) : undefined;
}

describe('a deployed bundle holding the link secret', () => {
  it('reads it from Secrets Manager by its ARN on the first request, not at import', { timeout: 60_000 }, async () => {
    // Prepare
    const bundle = path.join(mkdtempSync(path.join(tmpdir(), 'secret-read-')), 'index.mjs');
    await build(esbuildOptions(entryOf('http', 'unsubscribe-page'), bundle));

    // Act: an import alone, then a request with a token the secret does not sign (404, no table read)
    await run(bundle);
    const afterImport = requests.length;
    const answer = await run(bundle, {
      version: '2.0',
      routeKey: 'GET /u/{token}',
      rawPath: '/u/not-a-token',
      rawQueryString: '',
      headers: {},
      pathParameters: { token: 'not-a-token' },
      requestContext: {
        http: { method: 'GET', path: '/u/not-a-token', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
        requestId: 'secret-read-test',
        routeKey: 'GET /u/{token}',
        stage: '$default',
        timeEpoch: Date.now(),
      },
    });

    // Assess
    expect(afterImport).toBe(0);
    expect(answer?.statusCode).toBe(404);
    expect(requests).toEqual([{ target: 'secretsmanager.GetSecretValue', body: { SecretId: ARN } }]);
  });
});
