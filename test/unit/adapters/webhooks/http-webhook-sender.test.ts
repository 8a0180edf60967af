import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpWebhookSender } from '../../../../shared/adapters/webhooks/http-webhook-sender.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A receiver on 127.0.0.1, port 0; `answer` writes the response. */
async function receiver(answer: (res: ServerResponse) => void): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

const request = (url: string) => ({
  url,
  headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
  body: '{"type":"webhook.test"}',
});

describe('HttpWebhookSender with private URLs not allowed (AWS)', () => {
  it.each([
    ['http://127.0.0.1:9/hook', 'invalid_url: https is required'],
    [
      'https://127.0.0.1:9/hook',
      'address_refused: 127.0.0.1 resolves to 127.0.0.1, a loopback, private, link-local or metadata address',
    ],
    [
      'https://169.254.169.254/latest/meta-data/',
      'address_refused: 169.254.169.254 resolves to 169.254.169.254, a loopback, private, link-local or metadata address',
    ],
    [
      'https://[fd00:ec2::254]/',
      'address_refused: fd00:ec2::254 resolves to fd00:ec2::254, a loopback, private, link-local or metadata address',
    ],
    [
      'https://localhost:9/hook',
      'address_refused: localhost resolves to 127.0.0.1, a loopback, private, link-local or metadata address',
    ],
  ])('refuses %s before connecting', async (url, error) => {
    const sender = new HttpWebhookSender({
      allowPrivateUrls: false,
      lookup: async (host) => (host === 'localhost' ? [{ address: '127.0.0.1', family: 4 }] : []),
    });

    const outcome = await sender.send(request(url));

    expect(outcome).toEqual({ status_code: null, duration_ms: expect.any(Number), response_body: null, error });
  });

  it('refuses a receiver really listening on loopback, by address and by the name localhost (system DNS)', async () => {
    const local = await receiver((res) => res.end('ok'));
    const sender = new HttpWebhookSender({ allowPrivateUrls: false });
    const https = local.url.replace('http:', 'https:');

    expect((await sender.send(request(https))).error).toMatch(
      /^address_refused: 127\.0\.0\.1 resolves to 127\.0\.0\.1,/,
    );
    expect((await sender.send(request(https.replace('127.0.0.1', 'localhost')))).error).toMatch(
      /^address_refused: localhost resolves to /,
    );
    expect(local.received).toEqual([]);
  });
});

describe('HttpWebhookSender with private URLs allowed (local runtime)', () => {
  it('posts the body and headers and answers the status and the first 1 KB of the body', async () => {
    const local = await receiver((res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(5000)));
    const sender = new HttpWebhookSender({ allowPrivateUrls: true });

    const outcome = await sender.send(request(local.url));

    expect(outcome).toEqual({
      status_code: 200,
      duration_ms: expect.any(Number),
      response_body: 'x'.repeat(1024),
      error: null,
    });
    expect(local.received).toEqual([
      {
        headers: expect.objectContaining({
          'content-type': 'application/json',
          'webhook-id': 'msg_1',
          'content-length': '23',
          'user-agent': 'email-lifecycle-webhooks/1',
        }),
        body: '{"type":"webhook.test"}',
      },
    ]);
  });

  it('connects to the address it checked, whatever a second DNS answer would be', async () => {
    const local = await receiver((res) => res.writeHead(204).end());
    let lookups = 0;
    const sender = new HttpWebhookSender({
      allowPrivateUrls: true,
      // First answer loopback (the receiver); any later answer would point elsewhere.
      lookup: async () => [{ address: lookups++ === 0 ? '127.0.0.1' : '192.0.2.1', family: 4 }],
    });

    const outcome = await sender.send(request(local.url.replace('127.0.0.1', 'receiver.test')));

    expect(outcome).toMatchObject({ status_code: 204, response_body: '', error: null });
    expect(lookups).toBe(1);
    expect(local.received[0]!.headers.host).toBe(`receiver.test:${new URL(local.url).port}`);
  });

  it('reports a 500 with its body, a refused connection and a timeout', async () => {
    const failing = await receiver((res) => res.writeHead(500).end('boom'));
    const silent = await receiver(() => undefined);
    const sender = new HttpWebhookSender({ allowPrivateUrls: true, timeoutMs: 300 });

    expect(await sender.send(request(failing.url))).toMatchObject({
      status_code: 500,
      response_body: 'boom',
      error: null,
    });
    expect(await sender.send(request('http://127.0.0.1:1/hook'))).toMatchObject({
      status_code: null,
      error: expect.stringMatching(/^connection_failed: /),
    });
    const timedOut = await sender.send(request(silent.url));
    expect(timedOut).toEqual({
      status_code: null,
      duration_ms: expect.any(Number),
      response_body: null,
      error: 'timeout: no answer within 300 ms',
    });
    expect(timedOut.duration_ms).toBeGreaterThanOrEqual(290);
  });
});
