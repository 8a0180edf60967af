import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keys } from '../../shared/adapters/dynamo/keys.js';
import { call } from './support/api.js';
import { createTestClient } from './support/clients.js';
import { eventually } from './support/eventually.js';
import { documentClient } from './support/partition.js';

/**
 * Erasure reaches the webhook outbox: a stored message about a contact (its address, its name) and the attempts that
 * delivered it (the receiver here echoes what it got, as many do, so the attempt's stored response holds it too) keep
 * nothing personal after DELETE /client/contacts/{id}, and a replay sends ids only.
 */
interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  payload: { type: string; id: string; data: Record<string, any> };
}

let server: Server;
let base: string;
const deliveries: Delivery[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      deliveries.push({ path: req.url ?? '/', headers: req.headers, body, payload: JSON.parse(body) });
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"received":${body}}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const receivedAt = (path: string, type: string, match: (d: Delivery) => boolean = () => true) =>
  eventually(
    `a ${type} delivery at ${path}`,
    async () => deliveries.find((d) => d.path === path && d.payload.type === type && match(d)),
    { timeoutMs: 20_000 },
  );

const item = async (key: { pk: string; sk: string }) =>
  (await documentClient().send(new GetCommand({ TableName: inject('tableName'), Key: key, ConsistentRead: true })))
    .Item;

describe('erasure reaches stored webhook messages and their attempts', () => {
  it('leaves ids only in the messages, no receiver answer in the attempts, and a replay sends nothing personal', async () => {
    // Prepare: a contact with a name, an e-mail sent to it and its unsubscription, each delivered to an echoing receiver
    const client = await createTestClient();
    const key = client.api_key;
    const path = `/crm-${randomUUID().slice(0, 8)}`;
    const hook = await call('POST', '/client/webhooks', { key, body: { url: `${base}${path}` } });
    expect(hook.status).toBe(201);
    const webhookId = hook.body.data.id as number;
    const email = `zelda-${randomUUID().slice(0, 8)}@example.com`;
    const made = await call('POST', '/client/contacts', {
      key,
      body: { email, first_name: 'Zelda', last_name: 'Quixotic', client_contact_id: `crm-${randomUUID()}` },
    });
    expect(made.status).toBe(201);
    const contactId = made.body.data.id as number;
    const event = await call('POST', '/client/events?sync=true', {
      key,
      body: { type: 'signup', email, idempotency_key: `signup-${email}` },
    });
    expect(event.status).toBe(201);
    const sent = await receivedAt(path, 'email.sent', (d) => d.payload.data['contact_id'] === contactId);
    expect(
      (await call('PATCH', `/client/contacts/${contactId}/subscription`, { key, body: { is_subscribed: false } }))
        .status,
    ).toBe(200);
    const left = await receivedAt(path, 'contact.unsubscribed', (d) => d.payload.data['contact']?.id === contactId);
    expect(sent.body).toContain(email);
    expect(left.body).toContain('Quixotic');
    const personal = [email, 'Zelda', 'Quixotic'];
    const attempts = await eventually('both attempts logged', async () => {
      const list = (await call('GET', `/client/webhooks/${webhookId}/attempts`, { key })).body.data.attempts as {
        id: string;
        message_id: string;
        response_body: string | null;
      }[];
      const ours = list.filter((a) => a.message_id === sent.payload.id || a.message_id === left.payload.id);
      return ours.length >= 2 ? ours : undefined;
    });
    expect(attempts.some((a) => a.response_body?.includes(email))).toBe(true);

    // Act
    const erased = await call('DELETE', `/client/contacts/${contactId}`, { key });

    // Assess: the stored messages and attempts, read straight from the table
    expect(erased.status).toBe(200);
    expect(erased.body.data).toMatchObject({
      webhook_messages: expect.any(Number),
      webhook_attempts: expect.any(Number),
    });
    expect(erased.body.data.webhook_messages).toBeGreaterThanOrEqual(2);
    expect(erased.body.data.webhook_attempts).toBeGreaterThanOrEqual(2);
    for (const message of [sent, left]) {
      const stored = await item(keys.webhookMessage(client.id, message.payload.id));
      expect(stored).toBeDefined();
      for (const value of personal) expect(JSON.stringify(stored)).not.toContain(value);
      expect(JSON.parse(String(stored!['payload']))).toMatchObject({
        id: message.payload.id,
        type: message.payload.type,
        data: { erased: true },
      });
      const storedAttempts = (
        await documentClient().send(
          new QueryCommand({
            TableName: inject('tableName'),
            KeyConditionExpression: 'pk = :pk',
            FilterExpression: 'message_id = :m',
            ExpressionAttributeValues: {
              ':pk': keys.webhookAttemptsPk(client.id, webhookId),
              ':m': message.payload.id,
            },
            ConsistentRead: true,
          }),
        )
      ).Items!;
      expect(storedAttempts.length).toBeGreaterThanOrEqual(1);
      for (const value of personal) expect(JSON.stringify(storedAttempts)).not.toContain(value);
    }
    const kept = JSON.parse(String((await item(keys.webhookMessage(client.id, sent.payload.id)))!['payload'])).data;
    expect(kept).toMatchObject({
      sent_email_id: sent.payload.data['sent_email_id'],
      contact_id: contactId,
      status: 'sent',
    });
    expect(kept).not.toHaveProperty('to_email');
    expect(kept).not.toHaveProperty('subject');
    const listed = (await call('GET', `/client/webhooks/${webhookId}/attempts`, { key })).text;
    for (const value of personal) expect(listed).not.toContain(value);

    // A replay sends the message again, under its webhook-id, with nothing personal
    const attemptOfLeft = attempts.find((a) => a.message_id === left.payload.id)!;
    const before = deliveries.length;
    const replay = await call('POST', `/client/webhooks/${webhookId}/attempts/${attemptOfLeft.id}/replay`, { key });
    expect(replay.status).toBe(202);
    const replayed = await eventually('the replayed delivery', async () =>
      deliveries.slice(before).find((d) => d.headers['webhook-id'] === left.payload.id),
    );
    for (const value of personal) expect(replayed.body).not.toContain(value);
    expect(replayed.payload).toMatchObject({
      id: left.payload.id,
      type: 'contact.unsubscribed',
      data: { erased: true, contact: { id: contactId } },
    });
  });
});
