import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../../functions/routes.js';
import { createLocalServer } from '../../../local/server.js';

/**
 * Requests Node's HTTP parser refuses before any route sees them: the local server must still answer with the
 * envelope. Sent over a raw socket, since a well-behaved client (fetch) cannot produce most of them.
 */
const routes: RouteDefinition[] = [
  { method: 'POST', path: '/client/contacts', handler: 'contacts-create', tableAccess: 'readWrite' },
];

let server: Server;
let port: number;
let handlerCalls = 0;
const errorLogs: string[] = [];

beforeAll(async () => {
  server = createLocalServer({
    routes,
    maxBodyBytes: 1024,
    maxDrainBytes: 64 * 1024,
    errorLog: (message) => errorLogs.push(message),
    loadHandler: async () => async () => {
      handlerCalls += 1;
      return { statusCode: 201, body: '{}' };
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes the bytes as they are and reads until the server closes the connection. */
function rawRequest(...chunks: (string | Buffer)[]): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk) => received.push(chunk));
    socket.once('error', reject);
    socket.once('close', () => {
      const text = Buffer.concat(received).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
  });
}

const envelope = (condition: string, key: string, message: string) => ({
  data: {},
  errors: [{ condition, error: expect.any(String), key }],
  message,
  meta: { request_id: expect.any(String) },
  success: false,
});

describe('local server: requests the HTTP parser refuses', () => {
  it('answers a bad request line with a 400 malformed envelope', async () => {
    const res = await rawRequest('NOT A REQUEST LINE\r\n\r\n');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual(envelope('malformed', 'request', 'Bad Request'));
  });

  it('answers a 100 KB Authorization header with a 431 envelope naming the headers', async () => {
    const res = await rawRequest(
      `GET /api/v1/health HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${'a'.repeat(100_000)}\r\n\r\n`,
    );
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toEqual(envelope('max', 'headers', 'Request Header Fields Too Large'));
  });

  it('answers with a complete HTTP/1.1 response: JSON, its length, the request id, and a closed connection', async () => {
    const res = await rawRequest('\x00\x01\x02\r\n\r\n');
    expect(res.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(res.body)),
      connection: 'close',
    });
    expect(res.headers['x-request-id']).toBe(JSON.parse(res.body).meta.request_id);
  });

  it('answers with the envelope on a keep-alive connection that already carried a request', async () => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write('GET /api/v1/nowhere HTTP/1.1\r\nhost: x\r\n\r\n');
    await expect.poll(() => text).toContain('"not_found"');

    socket.write(`GET /api/v1/nowhere HTTP/1.1\r\nhost: x\r\nauthorization: ${'a'.repeat(100_000)}\r\n\r\n`);
    await closed;

    const second = text.slice(text.indexOf('HTTP/1.1', 1));
    expect(second).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4))).toEqual(
      envelope('max', 'headers', 'Request Header Fields Too Large'),
    );
  });

  it('answers both Content-Length and Transfer-Encoding with a 400 envelope, calling no handler', async () => {
    const calls = handlerCalls;
    const res = await rawRequest(
      'POST /api/v1/client/contacts HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n' +
        'content-length: 2\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual(envelope('malformed', 'request', 'Bad Request'));
    expect(handlerCalls).toBe(calls);
  });

  it('answers a broken chunked body with a 400 envelope, calling no handler and logging nothing', async () => {
    const calls = handlerCalls;
    const logged = errorLogs.length;
    const res = await rawRequest(
      'POST /api/v1/client/contacts HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n',
      'zz\r\n{}\r\n0\r\n\r\n',
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual(envelope('malformed', 'request', 'Bad Request'));
    expect(handlerCalls).toBe(calls);
    expect(errorLogs.slice(logged)).toEqual([]);
  });

  it('answers a body past the drain limit with the 413 envelope and closes the connection', async () => {
    const size = 200 * 1024;
    const res = await rawRequest(
      `POST /api/v1/client/contacts HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${size}\r\n\r\n`,
      Buffer.alloc(size, 0x20),
    );
    expect(res.status).toBe(413);
    expect(res.headers['connection']).toBe('close');
    expect(JSON.parse(res.body)).toEqual(envelope('max', 'body', 'Payload Too Large'));
  });
});
