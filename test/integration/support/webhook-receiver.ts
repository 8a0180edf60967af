import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export interface ReceivedDelivery {
  path: string;
  payload: { type: string; data: Record<string, any> };
  /** The request's headers as received (`webhook-id`, `webhook-timestamp`, `webhook-signature`, …). */
  headers: IncomingHttpHeaders;
  /** The body exactly as sent: what a Standard Webhooks signature is computed over. */
  body: string;
}

/**
 * A local endpoint that takes every webhook delivery (204) and keeps it, for the file's tests: `base` is its origin
 * once the file's beforeAll has run; each test subscribes its own path under it and picks its deliveries by path.
 */
export function webhookReceiver(): { readonly base: string; readonly received: ReceivedDelivery[] } {
  let server: Server | undefined;
  const receiver = { base: '', received: [] as ReceivedDelivery[] };
  beforeAll(async () => {
    const listening = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        receiver.received.push({ path: req.url ?? '/', payload: JSON.parse(body), headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    server = listening;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    receiver.base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });
  return receiver;
}
