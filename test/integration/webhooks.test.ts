import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, RFC3339_UTC } from './support/api.js';
import { createTestClient } from './support/clients.js';

interface Delivery {
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 (port 0) that records every delivery; the path picks its answer: /ok → 204, /fail → 500. */
let server: Server;
let base: string;
const deliveries: Delivery[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (req.url === '/fail') res.writeHead(500, { 'content-type': 'text/plain' }).end('receiver exploded');
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const lastDeliveryOf = (messageId: string): Delivery => {
  const found = deliveries.filter((d) => d.headers['webhook-id'] === messageId);
  expect(found).toHaveLength(1);
  return found[0]!;
};
const headersOf = (d: Delivery) => ({
  'webhook-id': String(d.headers['webhook-id']),
  'webhook-timestamp': String(d.headers['webhook-timestamp']),
  'webhook-signature': String(d.headers['webhook-signature']),
});

async function createWebhook(key: string, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/client/webhooks', { key, body: { url: `${base}/ok`, ...body } });
  expect(res.status).toBe(201);
  return res.body.data;
}

describe('webhook endpoints over HTTP', () => {
  it('creates an endpoint, shows its secret once, and /test delivers a signature standardwebhooks verifies', async () => {
    const client = await createTestClient();

    const created = await call('POST', '/client/webhooks', {
      key: client.api_key,
      body: { url: `${base}/ok`, description: 'CRM sync', event_types: ['email.sent', 'contact.unsubscribed'] },
    });

    expect(created.status).toBe(201);
    const secret = created.body.data.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.body.data).toEqual({
      id: expect.any(Number),
      url: `${base}/ok`,
      description: 'CRM sync',
      event_types: ['email.sent', 'contact.unsubscribed'],
      enabled: true,
      humans_only: false,
      failing_since: null,
      slow_since: null,
      disabled_reason: null,
      masked_secret: `whsec_…${secret.slice(-4)}`,
      previous_secret_expires_at: null,
      secret,
      created_at: expect.stringMatching(RFC3339_UTC),
      updated_at: expect.stringMatching(RFC3339_UTC),
    });
    const { secret: _shownOnce, ...view } = created.body.data;
    const id = view.id as number;
    const read = await call('GET', `/client/webhooks/${id}`, { key: client.api_key });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(view);
    expect(read.text).not.toContain(secret);
    const list = await call('GET', '/client/webhooks', { key: client.api_key });
    expect(list.body.data).toEqual({ webhooks: [view] });

    const test = await call('POST', `/client/webhooks/${id}/test`, { key: client.api_key });

    expect(test.status).toBe(200);
    expect(test.body.data).toEqual({
      delivered: true,
      status_code: 200,
      duration_ms: expect.any(Number),
      response_body: 'thanks',
      error: null,
      message_id: expect.stringMatching(/^msg_[0-9a-f]{32}$/),
    });
    const delivery = lastDeliveryOf(test.body.data.message_id);
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const payload = new Webhook(secret).verify(delivery.body, headersOf(delivery));
    expect(payload).toEqual({
      type: 'webhook.test',
      id: test.body.data.message_id,
      created_at: expect.stringMatching(RFC3339_UTC),
      data: { webhook_id: id, url: `${base}/ok`, message: expect.any(String) },
    });
    // A receiver with any other secret refuses it.
    const stranger = (await createWebhook(client.api_key)).secret as string;
    expect(() => new Webhook(stranger).verify(delivery.body, headersOf(delivery))).toThrow(WebhookVerificationError);
  });

  it('after a rotation, a delivery carries two signatures and both the old and the new secret verify it', async () => {
    const client = await createTestClient();
    const created = await createWebhook(client.api_key);

    const rotated = await call('POST', `/client/webhooks/${created.id}/rotate-secret`, { key: client.api_key });

    expect(rotated.status).toBe(200);
    const fresh = rotated.body.data.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(created.secret);
    expect(rotated.body.data).toMatchObject({
      id: created.id,
      masked_secret: `whsec_…${fresh.slice(-4)}`,
      previous_secret_expires_at: expect.stringMatching(RFC3339_UTC),
    });
    const overlapMs =
      Date.parse(rotated.body.data.previous_secret_expires_at) - Date.parse(rotated.body.data.updated_at);
    expect(overlapMs).toBe(24 * 60 * 60 * 1000);

    const test = await call('POST', `/client/webhooks/${created.id}/test`, { key: client.api_key });

    expect(test.body.data.delivered).toBe(true);
    const delivery = lastDeliveryOf(test.body.data.message_id);
    expect(String(delivery.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(new Webhook(fresh).verify(delivery.body, headersOf(delivery))).toMatchObject({ type: 'webhook.test' });
    expect(new Webhook(created.secret).verify(delivery.body, headersOf(delivery))).toMatchObject({
      type: 'webhook.test',
    });
    const read = await call('GET', `/client/webhooks/${created.id}`, { key: client.api_key });
    expect(read.text).not.toContain(fresh);
    expect(read.text).not.toContain(created.secret);
  });

  it('says what a failing receiver answered: 500 is not delivered', async () => {
    const client = await createTestClient();
    const created = await createWebhook(client.api_key, { url: `${base}/fail` });

    const test = await call('POST', `/client/webhooks/${created.id}/test`, { key: client.api_key });

    expect(test.status).toBe(200);
    expect(test.body.data).toEqual({
      delivered: false,
      status_code: 500,
      duration_ms: expect.any(Number),
      response_body: 'receiver exploded',
      error: null,
      message_id: expect.any(String),
    });
  });

  it('says why nothing answered: a refused connection', async () => {
    const client = await createTestClient();
    const created = await createWebhook(client.api_key, { url: 'http://127.0.0.1:1/closed' });

    const test = await call('POST', `/client/webhooks/${created.id}/test`, { key: client.api_key });

    expect(test.body.data).toMatchObject({
      delivered: false,
      status_code: null,
      response_body: null,
      error: expect.stringMatching(/^connection_failed: /),
    });
  });

  it('updates and deletes; the secret survives a PATCH', async () => {
    const client = await createTestClient();
    const created = await createWebhook(client.api_key, { event_types: ['email.sent'] });

    const patched = await call('PATCH', `/client/webhooks/${created.id}`, {
      key: client.api_key,
      body: { event_types: null, enabled: false, description: 'paused' },
    });

    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      id: created.id,
      url: created.url,
      event_types: null,
      enabled: false,
      description: 'paused',
      masked_secret: created.masked_secret,
    });
    // A disabled endpoint still takes a test delivery, signed with the unchanged secret.
    const test = await call('POST', `/client/webhooks/${created.id}/test`, { key: client.api_key });
    const delivery = lastDeliveryOf(test.body.data.message_id);
    expect(new Webhook(created.secret).verify(delivery.body, headersOf(delivery))).toMatchObject({
      type: 'webhook.test',
    });

    const deleted = await call('DELETE', `/client/webhooks/${created.id}`, { key: client.api_key });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id: created.id, enabled: false });
    expect((await call('GET', `/client/webhooks/${created.id}`, { key: client.api_key })).status).toBe(404);
    expect((await call('GET', '/client/webhooks', { key: client.api_key })).body.data).toEqual({ webhooks: [] });
  });

  it("answers 404 for another client's endpoint, for every verb, and nothing is delivered or changed", async () => {
    // In the sandbox: a verified test domain's domain.verified fact could reach the new endpoint during the count.
    const owner = await createTestClient(undefined, { sandbox: true });
    const other = await createTestClient();
    // Its own path: an earlier test's endpoint may still take a late delivery (a retry, a domain fact) meanwhile.
    const created = await createWebhook(owner.api_key, { url: `${base}/isolation` });
    const toOwner = () => deliveries.filter((d) => d.url === '/isolation').length;
    const before = toOwner();
    const path = `/client/webhooks/${created.id}`;

    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['PATCH', '', { enabled: false }],
      ['DELETE', '', undefined],
      ['POST', '/rotate-secret', undefined],
      ['POST', '/test', undefined],
    ] as const) {
      const res = await call(method, `${path}${suffix}`, { key: other.api_key, body });
      expect(res.status, `${method} ${suffix}`).toBe(404);
      expect(res.body.errors).toEqual([{ condition: 'not_found', key: 'id', error: 'Webhook not found' }]);
    }
    expect(toOwner()).toBe(before);
    expect((await call('GET', '/client/webhooks', { key: other.api_key })).body.data).toEqual({ webhooks: [] });
    const { secret: _s, ...view } = created;
    expect((await call('GET', path, { key: owner.api_key })).body.data).toEqual(view);
    expect((await call('GET', '/client/webhooks/abc', { key: owner.api_key })).status).toBe(404);
  });

  it('answers 409 max at the 11th endpoint and keeps 10; a delete frees a place', async () => {
    const client = await createTestClient();
    const ids: number[] = [];
    for (let i = 0; i < 10; i += 1) ids.push((await createWebhook(client.api_key)).id);

    const eleventh = await call('POST', '/client/webhooks', { key: client.api_key, body: { url: `${base}/ok` } });

    expect(eleventh.status).toBe(409);
    expect(eleventh.body.errors).toEqual([
      { condition: 'max', key: 'webhooks', error: 'A client may have at most 10 webhook endpoints; delete one first' },
    ]);
    expect(
      (await call('GET', '/client/webhooks', { key: client.api_key })).body.data.webhooks.map(
        (w: { id: number }) => w.id,
      ),
    ).toEqual(ids);
    expect((await call('DELETE', `/client/webhooks/${ids[0]}`, { key: client.api_key })).status).toBe(200);
    expect((await call('POST', '/client/webhooks', { key: client.api_key, body: { url: `${base}/ok` } })).status).toBe(
      201,
    );
  });

  it('answers 422 with every field problem at once and stores nothing', async () => {
    const client = await createTestClient();

    const res = await call('POST', '/client/webhooks', {
      key: client.api_key,
      body: {
        url: 'ftp://example.com/x',
        description: 5,
        event_types: ['email.sent', 'email.teleported'],
        enabled: 'yes',
      },
    });

    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { condition: 'format', key: 'url', error: 'Must be an absolute http or https URL' },
      { condition: 'type', key: 'description', error: 'Must be a string' },
      { condition: 'enum', key: 'event_types.1', error: expect.stringMatching(/^Must be one of email\.sent, /) },
      { condition: 'type', key: 'enabled', error: 'Must be a boolean' },
    ]);
    const missing = await call('POST', '/client/webhooks', { key: client.api_key, body: { event_types: [] } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([
      { condition: 'required', key: 'url', error: 'url is required' },
      { condition: 'min', key: 'event_types', error: 'Must list at least one event type, or be null for all' },
    ]);
    expect((await call('GET', '/client/webhooks', { key: client.api_key })).body.data).toEqual({ webhooks: [] });

    const created = await createWebhook(client.api_key);
    const patch = await call('PATCH', `/client/webhooks/${created.id}`, {
      key: client.api_key,
      body: { url: 'not a url' },
    });
    expect(patch.status).toBe(422);
    expect(patch.body.errors).toEqual([
      { condition: 'format', key: 'url', error: 'Must be an absolute http or https URL' },
    ]);
    expect((await call('GET', `/client/webhooks/${created.id}`, { key: client.api_key })).body.data.url).toBe(
      created.url,
    );
  });
});
