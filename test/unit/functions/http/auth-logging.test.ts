import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as callback } from '../../../../functions/http/auth-callback.js';
import { handler as me } from '../../../../functions/http/auth-me.js';
import { handler as signIn } from '../../../../functions/http/auth-sign-in.js';
import { handler as signOut } from '../../../../functions/http/auth-sign-out.js';
import { memoryStores } from '../../../../shared/adapters/memory/memory-stores.js';
import { createContainer, setContainer } from '../../../../shared/composition/container.js';
import { loadConfig } from '../../../../shared/config.js';
import { createClient } from '../../../../shared/domain/clients/create-client.js';
import type { SystemMessage } from '../../../../shared/domain/system-mail/system-mail.js';
import { logger } from '../../../../shared/logger.js';
import { redactQuerySecrets } from '../../../../local/server.js';

const context = { awsRequestId: 'aws-req', functionName: 'auth', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

const event = (routeKey: string, parts: Partial<APIGatewayProxyEventV2> = {}): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey,
    rawPath: routeKey.split(' ')[1],
    rawQueryString: '',
    headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'http' },
    requestContext: { requestId: 'req-1', http: { method: routeKey.split(' ')[0], sourceIp: '203.0.113.7' } },
    isBase64Encoded: false,
    ...parts,
  }) as APIGatewayProxyEventV2;

let output = '';
const mails: SystemMessage[] = [];

beforeEach(async () => {
  output = '';
  mails.length = 0;
  const stores = memoryStores();
  await createClient(stores, { email: 'owner@acme.test', name: 'Acme' });
  const systemMail = { send: async (m: SystemMessage) => (mails.push(m), { kind: 'sent' as const, providerMessageId: 'm-1' }) };
  setContainer(createContainer({ config: loadConfig({ AUTH_CACHE_TTL_SECONDS: '0' }), overrides: { ...stores, systemMail } }));
  logger.setLogLevel('DEBUG');
  const capture = (chunk: unknown) => ((output += String(chunk)), true);
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) vi.spyOn(console, level).mockImplementation((...args) => void capture(args.map(String).join(' ')));
});
afterEach(() => {
  vi.restoreAllMocks();
  logger.setLogLevel('WARN');
  setContainer(undefined);
});

describe('sign-in secrets in logs (issue 23 §4)', () => {
  it('never logs a link token, a session id or a CSRF token, at DEBUG, through sign-in, callback, use, reuse and sign-out', async () => {
    const asked = (await signIn(event('POST /api/v1/auth/sign-in', { body: JSON.stringify({ email: 'owner@acme.test' }) }), context)) as APIGatewayProxyStructuredResultV2;
    expect(asked.statusCode).toBe(202);
    const token = /token=([A-Za-z0-9_-]{43})/.exec(mails[0]!.text)![1]!;
    const linkEvent = event('GET /api/v1/auth/callback', { rawQueryString: `token=${token}`, queryStringParameters: { token } });
    const opened = (await callback(linkEvent, context)) as APIGatewayProxyStructuredResultV2;
    expect(opened.statusCode).toBe(302);
    const cookies = opened.cookies!.map((c) => c.split(';')[0]!);
    const [sessionId, csrf] = cookies.map((c) => c.split('=')[1]!);
    expect((await me(event('GET /api/v1/auth/me', { cookies }), context)) as APIGatewayProxyStructuredResultV2).toMatchObject({ statusCode: 200 });
    expect(((await callback(linkEvent, context)) as APIGatewayProxyStructuredResultV2).statusCode).toBe(400);
    const out = (await signOut(event('POST /api/v1/auth/sign-out', { cookies, headers: { 'x-csrf-token': csrf! } }), context)) as APIGatewayProxyStructuredResultV2;
    expect(out.statusCode).toBe(200);
    expect(((await me(event('GET /api/v1/auth/me', { cookies }), context)) as APIGatewayProxyStructuredResultV2).statusCode).toBe(401);

    // The handlers did log (one access line per request at least) — and none of the secrets.
    expect(output).toContain('request completed');
    for (const secret of [token, sessionId!, csrf!]) expect(output).not.toContain(secret);
  });

  it('sets Secure cookies when the request came over https (API Gateway’s X-Forwarded-Proto)', async () => {
    await signIn(event('POST /api/v1/auth/sign-in', { body: JSON.stringify({ email: 'owner@acme.test' }) }), context);
    const token = /token=([A-Za-z0-9_-]{43})/.exec(mails[0]!.text)![1]!;
    const https = event('GET /api/v1/auth/callback', { queryStringParameters: { token }, headers: { 'x-forwarded-proto': 'https' } });
    const opened = (await callback(https, context)) as APIGatewayProxyStructuredResultV2;
    expect(opened.statusCode).toBe(302);
    expect(opened.cookies).toHaveLength(2);
    for (const cookie of opened.cookies!) expect(cookie).toContain('; Secure;');
  });

  it('redacts a token in the local runtime’s access log line', () => {
    expect(redactQuerySecrets('/api/v1/auth/callback?token=abcDEF_-123&x=1')).toBe('/api/v1/auth/callback?token=[redacted]&x=1');
    expect(redactQuerySecrets('/api/v1/client/contacts?limit=5')).toBe('/api/v1/client/contacts?limit=5');
  });
});
