import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/api.js';
import { createTestClient } from './support/clients.js';
import { eventually } from './support/eventually.js';
import { documentClient } from './support/partition.js';
import { inject } from 'vitest';
import { awaitSesMailsTo, sesMails } from './support/ses-mailbox.js';

/**
 * Webhook deliveries over HTTP against the local runtime: facts recorded by the engine reach a receiver on a free port
 * through the table's change stream and the webhooks queue, signed as Standard Webhooks; retries (the integration
 * run waits 1 s between attempts, WEBHOOK_RETRY_SCHEDULE_SECONDS), the attempts log, replay, auto-disable.
 */
interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  payload: { type: string; id: string; created_at: string; data: Record<string, any> };
}

let server: Server;
let base: string;
const deliveries: Delivery[] = [];
/** Per path: how many requests to answer 500 before answering 200. */
const failFirst = new Map<string, number>();
const seenPerPath = new Map<string, number>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const body = Buffer.concat(chunks).toString('utf8');
      const seen = (seenPerPath.get(path) ?? 0) + 1;
      seenPerPath.set(path, seen);
      if (path.startsWith('/down') || seen <= (failFirst.get(path) ?? 0)) {
        res.writeHead(503, { 'content-type': 'text/plain' }).end(`try again (${seen})`);
        return;
      }
      deliveries.push({ path, headers: req.headers, body, payload: JSON.parse(body) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const verify = (secret: string, d: Delivery) =>
  new Webhook(secret).verify(d.body, {
    'webhook-id': String(d.headers['webhook-id']),
    'webhook-timestamp': String(d.headers['webhook-timestamp']),
    'webhook-signature': String(d.headers['webhook-signature']),
  });

const receivedAt = (path: string, type: string, match: (d: Delivery) => boolean = () => true) =>
  eventually(
    `a ${type} delivery at ${path}`,
    async () => deliveries.find((d) => d.path === path && d.payload.type === type && match(d)),
    { timeoutMs: 20_000 },
  );

async function endpoint(key: string, path: string, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/client/webhooks', { key, body: { url: `${base}${path}`, ...body } });
  expect(res.status).toBe(201);
  return res.body.data as { id: number; secret: string };
}

async function signup(key: string, email: string, idempotencyKey: string) {
  const res = await call('POST', '/client/events?sync=true', {
    key,
    body: { type: 'signup', email, auto_create_contact: true, idempotency_key: idempotencyKey },
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: number; contact_id: number; execution_ids: number[] };
}

describe('webhook deliveries of recorded facts', () => {
  it('tells a receiver of the welcome e-mail sent and delivered, and of the one-click unsubscribe, verified with standardwebhooks', async () => {
    // Prepare
    const client = await createTestClient();
    const path = `/crm-${randomUUID().slice(0, 8)}`;
    const hook = await endpoint(client.api_key, path);
    const email = `ada-${randomUUID().slice(0, 8)}@example.com`;
    const idem = `signup-${randomUUID()}`;

    // Act
    const event = await signup(client.api_key, email, idem);
    const sent = await receivedAt(path, 'email.sent');
    const delivered = await receivedAt(
      path,
      'email.delivered',
      (d) => d.payload.data['sent_email_id'] === sent.payload.data['sent_email_id'],
    );
    const mail = (await awaitSesMailsTo(email))[0]!;
    const link = mail.headers!.find((h) => h.name === 'List-Unsubscribe')!.value.slice(1, -1);
    await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    const unsubscribed = await receivedAt(
      path,
      'contact.unsubscribed',
      (d) => d.payload.data['contact']?.id === event.contact_id,
    );

    // Assess: signed as Standard Webhooks receivers check, with this service's ids and the event's idempotency key
    for (const d of [sent, delivered, unsubscribed]) {
      expect(verify(hook.secret, d)).toEqual(d.payload);
      expect(d.headers['webhook-id']).toBe(d.payload.id);
      expect(d.payload.id).toMatch(/^msg_[0-9a-f]{32}$/);
    }
    expect(sent.payload.data).toMatchObject({
      status: 'sent',
      execution_id: expect.any(Number),
      workflow_id: expect.any(Number),
      contact_id: event.contact_id,
      to_email: email,
      event: { id: event.id, idempotency_key: idem, type: 'signup' },
    });
    expect(event.execution_ids).toContain(sent.payload.data['execution_id']);
    expect(sent.payload.data).not.toHaveProperty('html_body');
    expect(delivered.payload.data).toMatchObject({
      status: 'delivered',
      sent_email_id: sent.payload.data['sent_email_id'],
    });
    expect(unsubscribed.payload.data).toMatchObject({
      contact: { id: event.contact_id, email, is_subscribed: false },
      reason: 'unsubscribe_link',
      source: 'link',
    });
    // Every delivery's attempt reads back, newest first, succeeded at the first attempt.
    const attempts = await call('GET', `/client/webhooks/${hook.id}/attempts?limit=100`, { key: client.api_key });
    expect(attempts.status).toBe(200);
    const mine = attempts.body.data.attempts as {
      message_id: string;
      succeeded: boolean;
      attempt: number;
      status_code: number;
    }[];
    for (const d of [sent, delivered, unsubscribed]) {
      expect(mine).toContainEqual(
        expect.objectContaining({ message_id: d.payload.id, succeeded: true, attempt: 1, status_code: 204 }),
      );
    }
  });

  it('gives a receiver that fails twice the event at the third attempt, logs the three attempts, and replays it on request', async () => {
    // Prepare
    const client = await createTestClient();
    const path = `/flaky-${randomUUID().slice(0, 8)}`;
    failFirst.set(path, 2);
    const hook = await endpoint(client.api_key, path, { event_types: ['email.sent'] });

    // Act
    await signup(client.api_key, `grace-${randomUUID().slice(0, 8)}@example.com`, `k-${randomUUID()}`);
    const first = await receivedAt(path, 'email.sent');
    const page = await eventually('three attempts', async () => {
      const res = await call('GET', `/client/webhooks/${hook.id}/attempts`, { key: client.api_key });
      return res.body.data.attempts.length >= 3 ? res : undefined;
    });

    // Assess
    expect(page.status).toBe(200);
    expect(page.body.data.attempts.map((a: any) => [a.attempt, a.succeeded, a.status_code])).toEqual([
      [3, true, 204],
      [2, false, 503],
      [1, false, 503],
    ]);
    expect(page.body.data.attempts[1]).toMatchObject({
      response_body: 'try again (2)',
      next_attempt_at: expect.any(String),
      message_id: first.payload.id,
    });
    expect(page.body.data.attempts[0].next_attempt_at).toBeNull();
    // Paged one at a time, newest first, the same three.
    const one = await call('GET', `/client/webhooks/${hook.id}/attempts?limit=1`, { key: client.api_key });
    expect(one.body.data).toMatchObject({ has_more: true, next_starting_after: page.body.data.attempts[0].id });
    const two = await call(
      'GET',
      `/client/webhooks/${hook.id}/attempts?limit=1&starting_after=${one.body.data.next_starting_after}`,
      { key: client.api_key },
    );
    expect(two.body.data.attempts[0].id).toBe(page.body.data.attempts[1].id);

    // Replay the first (failed) attempt: the same webhook-id arrives again, as a replay chain.
    const replay = await call('POST', `/client/webhooks/${hook.id}/attempts/${page.body.data.attempts[2].id}/replay`, {
      key: client.api_key,
    });
    expect(replay.status).toBe(202);
    expect(replay.body.data).toEqual({ message_id: first.payload.id, webhook_id: hook.id, queued: true });
    await eventually('the replayed delivery', async () =>
      deliveries.filter((d) => d.path === path && d.payload.id === first.payload.id).length >= 2 ? true : undefined,
    );
    const after = await call('GET', `/client/webhooks/${hook.id}/attempts?limit=1`, { key: client.api_key });
    expect(after.body.data.attempts[0]).toMatchObject({
      replay: true,
      attempt: 1,
      succeeded: true,
      message_id: first.payload.id,
    });
  });

  it('disables an endpoint whose every attempt failed for 5 days and e-mails its client (failing_since moved back: a fake clock)', async () => {
    // Prepare: an endpoint that always answers 503, already failing since 6 days ago
    const client = await createTestClient();
    const hook = await endpoint(client.api_key, `/down-${randomUUID().slice(0, 8)}`, { event_types: ['email.sent'] });
    const sixDaysAgo = new Date(Date.now() - 6 * 86_400_000).toISOString();
    await documentClient().send(
      new UpdateCommand({
        TableName: inject('tableName'),
        Key: { pk: `CLIENT#${client.id}`, sk: `WEBHOOK#${String(hook.id).padStart(12, '0')}` },
        UpdateExpression: 'SET failing_since = :t',
        ExpressionAttributeValues: { ':t': sixDaysAgo },
      }),
    );

    // Act
    await signup(client.api_key, `linus-${randomUUID().slice(0, 8)}@example.com`, `k-${randomUUID()}`);
    const disabled = await eventually('the endpoint disabled', async () => {
      const res = await call('GET', `/client/webhooks/${hook.id}`, { key: client.api_key });
      return res.body.data.enabled === false ? res.body.data : undefined;
    });
    const notice = await eventually('the disabled notice', async () => {
      const found = (await sesMails()).find(
        (m) => m.subject === `Webhook endpoint ${hook.id} disabled after 5 days of failures`,
      );
      return found;
    });

    // Assess
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: 'failing', failing_since: sixDaysAgo });
    expect(notice.destination.to[0]).toMatch(/^client-[0-9a-f]{8}@test\.example$/);
    expect(notice.body.text).toContain(`${base}/down-`);
    // Replaying while disabled is refused; enabling clears the failure state.
    const attempts = await call('GET', `/client/webhooks/${hook.id}/attempts`, { key: client.api_key });
    const replay = await call(
      'POST',
      `/client/webhooks/${hook.id}/attempts/${attempts.body.data.attempts[0].id}/replay`,
      { key: client.api_key },
    );
    expect(replay.status).toBe(409);
    expect(replay.body.errors).toMatchObject([{ condition: 'state', key: 'enabled' }]);
    const enabled = await call('PATCH', `/client/webhooks/${hook.id}`, {
      key: client.api_key,
      body: { enabled: true },
    });
    expect(enabled.body.data).toMatchObject({ enabled: true, failing_since: null, disabled_reason: null });
  });

  it('keeps every client to its own endpoints, attempts and replays (another client: 404)', async () => {
    const a = await createTestClient();
    const b = await createTestClient();
    const pathA = `/iso-a-${randomUUID().slice(0, 8)}`;
    const hookA = await endpoint(a.api_key, pathA, { event_types: ['email.sent'] });
    await endpoint(b.api_key, `/iso-b-${randomUUID().slice(0, 8)}`, { event_types: ['email.sent'] });
    await signup(a.api_key, `iso-${randomUUID().slice(0, 8)}@example.com`, `k-${randomUUID()}`);
    await receivedAt(pathA, 'email.sent');
    const attempts = await call('GET', `/client/webhooks/${hookA.id}/attempts`, { key: a.api_key });
    const attemptId = attempts.body.data.attempts[0].id;

    expect((await call('GET', `/client/webhooks/${hookA.id}/attempts`, { key: b.api_key })).status).toBe(404);
    expect(
      (await call('POST', `/client/webhooks/${hookA.id}/attempts/${attemptId}/replay`, { key: b.api_key })).status,
    ).toBe(404);
    expect(deliveries.filter((d) => d.path.startsWith('/iso-b-'))).toEqual([]);
  });
});
