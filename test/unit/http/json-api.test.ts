import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from '../../../shared/validation/zod.js';
import { memoryClientAdapters } from '../../../shared/adapters/memory/client-stores.js';
import { createContainer, setContainer } from '../../../shared/composition/container.js';
import { loadConfig } from '../../../shared/config.js';
import { createClient } from '../../../shared/domain/clients/create-client.js';
import { conflict } from '../../../shared/errors.js';
import { jsonApi } from '../../../shared/http/api.js';
import { publicApi } from '../../../shared/http/public-api.js';
import { bareJson, created, ok } from '../../../shared/http/envelope.js';

const context = {
  awsRequestId: 'aws-req',
  functionName: 'test',
  getRemainingTimeInMillis: () => 1000,
} as unknown as Context;

function event(
  overrides: Partial<APIGatewayProxyEventV2> & { headers?: Record<string, string> } = {},
): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'POST /api/v1/things/{id}',
    rawPath: '/api/v1/things/7',
    rawQueryString: '',
    headers: {},
    requestContext: { requestId: 'req-123', http: { method: 'POST', path: '/api/v1/things/7' } } as never,
    isBase64Encoded: false,
    ...overrides,
  } as APIGatewayProxyEventV2;
}

const Body = z.object({ name: z.string().check(z.minLength(2)), age: z.int().check(z.gte(0)), email: z.email() });
const Thing = z.object({ id: z.int(), name: z.string(), client: z.int() });
const handler = jsonApi(
  {
    summary: 'Create a thing',
    params: z.object({ id: z.coerce.number().check(z.int()) }),
    body: Body,
    responses: { 201: Thing },
  },
  [],
  async ({ params, body }, ctx) => created({ id: params.id, name: body.name, client: ctx.clientId }),
);

let apiKey = '';
let clientId = 0;

beforeEach(async () => {
  const adapters = memoryClientAdapters();
  const client = await createClient(adapters, { email: 'o@acme.test', name: 'Acme' });
  apiKey = client.api_key;
  clientId = client.id;
  // The memory stores replace the DynamoDB ones; the container builds the authenticator on them (no auth cache).
  setContainer(createContainer({ config: loadConfig({ AUTH_CACHE_TTL_SECONDS: '0' }), overrides: adapters }));
});
afterEach(() => setContainer(undefined));

const call = async (e: APIGatewayProxyEventV2) => {
  const res = await handler(e, context);
  return { status: res.statusCode, body: JSON.parse(res.body as string) };
};
const authed = (body: string | undefined, headers: Record<string, string> = { 'Content-Type': 'application/json' }) =>
  event({ headers: { Authorization: `Bearer ${apiKey}`, ...headers }, body, pathParameters: { id: '7' } });

describe('jsonApi', () => {
  it('answers 201 with the envelope and the request id on success', async () => {
    const res = await call(authed(JSON.stringify({ name: 'Ada', age: 36, email: 'ada@x.test' })));
    expect(res).toEqual({
      status: 201,
      body: {
        data: { id: 7, name: 'Ada', client: clientId },
        errors: [],
        message: 'Created',
        meta: { request_id: 'req-123' },
        success: true,
      },
    });
  });

  it('answers 401 before looking at the body when the header is missing', async () => {
    const res = await call(event({ body: '{not json', headers: { 'content-type': 'application/json' } }));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, data: {}, meta: { request_id: 'req-123' } });
    expect(res.body.errors).toEqual([{ condition: 'unauthorized', error: expect.any(String), key: 'authorization' }]);
  });

  it('answers 400 malformed for invalid JSON', async () => {
    const res = await call(authed('{"name": '));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ condition: 'malformed', error: expect.any(String), key: 'body' }]);
  });

  it('answers 400 malformed when the JSON body is not an object', async () => {
    const res = await call(authed('[1,2]'));
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ condition: 'malformed', key: 'body' });
  });

  it('answers 415 for a body that is not JSON', async () => {
    const res = await call(authed('name=Ada', { 'Content-Type': 'application/x-www-form-urlencoded' }));
    expect(res.status).toBe(415);
    expect(res.body.errors[0]).toMatchObject({ key: 'content-type' });
  });

  it('answers 422 naming every bad field at once, with dotted keys and conditions', async () => {
    const res = await call(authed(JSON.stringify({ name: 'A', age: -1, email: 'nope' })));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { condition: 'min', error: expect.any(String), key: 'name' },
      { condition: 'min', error: expect.any(String), key: 'age' },
      { condition: 'format', error: expect.any(String), key: 'email' },
    ]);
  });

  it('reports a missing field as required and an empty body as every required field', async () => {
    const res = await call(authed(undefined));
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { key: string; condition: string }) => [e.key, e.condition])).toEqual([
      ['name', 'required'],
      ['age', 'required'],
      ['email', 'required'],
    ]);
  });

  it('maps an AppError thrown by the domain to its status', async () => {
    const failing = jsonApi({ summary: 'Fail', responses: { 200: Thing } }, [], async () => {
      throw conflict('unique', 'email', 'taken');
    });
    const res = await failing(authed(undefined), context);
    expect(res.statusCode).toBe(409);
    expect(JSON.parse(res.body as string).errors).toEqual([{ condition: 'unique', error: 'taken', key: 'email' }]);
  });

  it('answers 500 without internals for an unexpected error, and logs the error instead', async () => {
    // Prepare: the logger is captured, so the expected ERROR line does not reach the test output.
    const { logger } = await import('../../../shared/logger.js');
    const logged: unknown[][] = [];
    const spy = vi.spyOn(logger, 'error').mockImplementation((...args: unknown[]) => void logged.push(args));
    const failing = publicApi({ summary: 'Fail', responses: { 200: Thing } }, [], async () => {
      throw new Error('secret table name and stack');
    });

    // Act
    const res = await failing(event(), context).finally(() => spy.mockRestore());

    // Assess
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret');
    expect(JSON.parse(res.body as string)).toMatchObject({ success: false, meta: { request_id: 'req-123' } });
    expect(logged).toEqual([
      ['unhandled error', { error: expect.objectContaining({ message: 'secret table name and stack' }) }],
    ]);
  });

  it('serves public routes without authentication', async () => {
    const health = publicApi(
      { summary: 'Health', responses: { 200: z.object({ status: z.string() }) } },
      [],
      async () => ok({ status: 'ok' }),
    );
    const res = await health(event({ body: undefined }), context);
    expect(res.statusCode).toBe(200);
  });

  it('carries its contract, with the authentication and the errors its wrapper implies', () => {
    expect(handler.contract).toMatchObject({
      kind: 'json',
      auth: 'client',
      impliedErrors: [400, 401, 403, 413, 415, 422, 429, 500],
    });
    expect(handler.contract.route).toMatchObject({ summary: 'Create a thing', responses: { 201: Thing } });
    const health = publicApi({ summary: 'Health', responses: { 200: Thing } }, [], async () => {
      throw new Error('not called');
    });
    // No input to validate: no 422. An anonymous route is limited per IP: 429.
    expect(health.contract).toMatchObject({ kind: 'json', auth: 'none', impliedErrors: [400, 413, 415, 429, 500] });
  });

  it('answers a bare JSON document without the envelope', async () => {
    const document = publicApi(
      { summary: 'Document', responses: { 200: { document: z.object({ openapi: z.string() }) } } },
      [],
      async () => bareJson({ openapi: '3.1.0' }),
    );
    const res = await document(event({ body: undefined }), context);
    expect(res).toMatchObject({ statusCode: 200, headers: { 'x-request-id': 'req-123' } });
    expect(JSON.parse(res.body as string)).toEqual({ openapi: '3.1.0' });
  });
});

describe('request logging', () => {
  it('writes structured lines with request and client ids, and never the key or the body', async () => {
    // Prepare
    const { logger } = await import('../../../shared/logger.js');
    const previous = logger.getLevelName();
    logger.setLogLevel('INFO');
    const lines: string[] = [];
    const original = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    // Act
    try {
      await call(authed(JSON.stringify({ name: 'Secret Name', age: 1, email: 'hidden@x.test' })));
    } finally {
      process.stdout.write = original;
      logger.setLogLevel(previous);
    }
    // Assess
    const output = lines.join('');
    const access = lines.map((l) => JSON.parse(l)).find((l) => l.message === 'request completed');
    expect(access).toMatchObject({ request_id: 'req-123', client_id: clientId, status: 201, level: 'INFO' });
    expect(output).not.toContain(apiKey);
    expect(output).not.toContain('hidden@x.test');
    expect(output).not.toContain('Secret Name');
  });
});
