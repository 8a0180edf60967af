import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as callback } from '../../../../functions/http/auth-callback.js';
import { handler as press } from '../../../../functions/http/auth-callback-confirm.js';
import { handler as sendSystemMail } from '../../../../functions/queue/send-system-mail.js';
import { toSqsEvent } from '../../../../local/queue-functions.js';
import type { Queue, QueueMessages, QueueName } from '../../../../shared/platform.js';
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

const context = {
  awsRequestId: 'aws-req',
  functionName: 'auth',
  getRemainingTimeInMillis: () => 10_000,
} as unknown as Context;

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
const queued: string[] = [];

/** The Queue port, keeping each message's body; `deliver` hands them to the real queue function. */
const queue: Queue = {
  async send<Q extends QueueName>(_queue: Q, message: QueueMessages[Q]) {
    queued.push(JSON.stringify(message));
  },
  async sendBatch() {
    throw new Error('not used');
  },
};
const deliver = async () => {
  const deliveries = queued
    .splice(0)
    .map((body, i) => ({ messageId: `m-${i}`, body, receiveCount: 1, sentAt: Date.now() }));
  expect(await sendSystemMail(toSqsEvent('system-mail', deliveries), context)).toEqual({ batchItemFailures: [] });
};

/** The sign-in page's button, pressed in the browser that asked (`binding`: its els_signin cookie). */
const pressEvent = (token: string, binding: string, headers: Record<string, string> = {}) =>
  event('POST /api/v1/auth/callback', {
    body: `token=${token}`,
    cookies: [binding],
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-proto': 'http',
      'sec-fetch-site': 'same-origin',
      ...headers,
    },
  });

beforeEach(async () => {
  output = '';
  mails.length = 0;
  queued.length = 0;
  const stores = memoryStores();
  await createClient(stores, { email: 'owner@acme.test', name: 'Acme' });
  const systemMail = {
    send: async (m: SystemMessage) => (mails.push(m), { kind: 'sent' as const, providerMessageId: 'm-1' }),
  };
  setContainer(
    createContainer({
      config: loadConfig({ AUTH_CACHE_TTL_SECONDS: '0' }),
      overrides: { ...stores, systemMail, queue },
    }),
  );
  logger.setLogLevel('DEBUG');
  const capture = (chunk: unknown) => {
    output += String(chunk);
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const)
    vi.spyOn(console, level).mockImplementation((...args) => void capture(args.map(String).join(' ')));
});
afterEach(() => {
  vi.restoreAllMocks();
  logger.setLogLevel('WARN');
  setContainer(undefined);
});

describe('sign-in secrets in logs', () => {
  it('never logs a link token, a session id or a CSRF token, at DEBUG, through sign-in, callback, use, reuse and sign-out', async () => {
    const asked = (await signIn(
      event('POST /api/v1/auth/sign-in', { body: JSON.stringify({ email: 'owner@acme.test' }) }),
      context,
    )) as APIGatewayProxyStructuredResultV2;
    expect(asked.statusCode).toBe(202);
    expect(mails).toEqual([]);
    await deliver();
    const binding = asked.cookies![0]!.split(';')[0]!;
    const token = /token=([A-Za-z0-9_-]{43})/.exec(mails[0]!.text)![1]!;
    const linkEvent = event('GET /api/v1/auth/callback', {
      rawQueryString: `token=${token}`,
      queryStringParameters: { token },
      cookies: [binding],
    });
    expect(((await callback(linkEvent, context)) as APIGatewayProxyStructuredResultV2).statusCode).toBe(200);
    const opened = (await press(pressEvent(token, binding), context)) as APIGatewayProxyStructuredResultV2;
    expect(opened.statusCode).toBe(303);
    const cookies = opened.cookies!.slice(0, 2).map((c) => c.split(';')[0]!);
    const [sessionId, csrf] = cookies.map((c) => c.split('=')[1]!);
    expect(
      (await me(event('GET /api/v1/auth/me', { cookies }), context)) as APIGatewayProxyStructuredResultV2,
    ).toMatchObject({ statusCode: 200 });
    expect(((await press(pressEvent(token, binding), context)) as APIGatewayProxyStructuredResultV2).statusCode).toBe(
      400,
    );
    expect(((await callback(linkEvent, context)) as APIGatewayProxyStructuredResultV2).statusCode).toBe(400);
    const out = (await signOut(
      event('POST /api/v1/auth/sign-out', { cookies, headers: { 'x-csrf-token': csrf! } }),
      context,
    )) as APIGatewayProxyStructuredResultV2;
    expect(out.statusCode).toBe(200);
    expect(
      ((await me(event('GET /api/v1/auth/me', { cookies }), context)) as APIGatewayProxyStructuredResultV2).statusCode,
    ).toBe(401);

    // The handlers did log (one access line per request at least) — and none of the secrets.
    expect(output).toContain('request completed');
    for (const secret of [token, sessionId!, csrf!, binding.split('=')[1]!]) expect(output).not.toContain(secret);
  });

  it('sets Secure cookies when the request came over https (API Gateway’s X-Forwarded-Proto)', async () => {
    const https = { 'content-type': 'application/json', 'x-forwarded-proto': 'https' };
    const asked = (await signIn(
      event('POST /api/v1/auth/sign-in', { body: JSON.stringify({ email: 'owner@acme.test' }), headers: https }),
      context,
    )) as APIGatewayProxyStructuredResultV2;
    expect(asked.cookies).toEqual([
      expect.stringMatching(
        /^els_signin=[A-Za-z0-9_-]{43}; Path=\/api\/v1\/auth\/callback; Max-Age=900; HttpOnly; Secure; SameSite=Strict$/,
      ),
    ]);
    await deliver();
    const token = /token=([A-Za-z0-9_-]{43})/.exec(mails[0]!.text)![1]!;
    const opened = (await press(
      pressEvent(token, asked.cookies![0]!.split(';')[0]!, { 'x-forwarded-proto': 'https' }),
      context,
    )) as APIGatewayProxyStructuredResultV2;
    expect(opened.statusCode).toBe(303);
    expect(opened.cookies).toHaveLength(3);
    for (const cookie of opened.cookies!) expect(cookie).toContain('; Secure');
    expect(opened.cookies![2]).toMatch(
      /^els_signin=; Path=\/api\/v1\/auth\/callback; Max-Age=0; HttpOnly; Secure; SameSite=Strict$/,
    );
  });

  it('redacts a token in the local runtime’s access log line', () => {
    expect(redactQuerySecrets('/api/v1/auth/callback?token=abcDEF_-123&x=1')).toBe(
      '/api/v1/auth/callback?token=[redacted]&x=1',
    );
    expect(redactQuerySecrets('/api/v1/client/contacts?limit=5')).toBe('/api/v1/client/contacts?limit=5');
  });
});
