import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from './support/api.js';
import { createTestClient } from './support/clients.js';
import { eventually } from './support/eventually.js';
import { webhookReceiver } from './support/webhook-receiver.js';

/** Topics over HTTP: a contact's topic choice reaches a webhook receiver as contact.topic_changed. */
const receiver = webhookReceiver();
const { received } = receiver;

describe('contact.topic_changed webhooks', () => {
  it('tells a receiver subscribed to contact.topic_changed which topic a contact left, once', async () => {
    // Prepare
    const { api_key: key } = await createTestClient();
    const path = `/topics-${randomUUID().slice(0, 8)}`;
    const hook = await call('POST', '/client/webhooks', {
      key,
      body: { url: `${receiver.base}${path}`, event_types: ['contact.topic_changed'] },
    });
    expect(hook.status).toBe(201);
    const topic = (await call('POST', '/client/topics', { key, body: { name: 'News' } })).body.data;
    const email = `hook-${randomUUID().slice(0, 8)}@example.com`;
    const contact = (await call('POST', '/client/contacts', { key, body: { email } })).body.data;

    // Act
    await call('PATCH', `/client/contacts/${contact.id}/subscription`, {
      key,
      body: { is_subscribed: false, topic_id: topic.id },
    });
    const delivery = await eventually(
      'a contact.topic_changed delivery',
      async () => received.find((d) => d.path === path && d.payload.type === 'contact.topic_changed'),
      { timeoutMs: 20_000 },
    );

    // Assess
    expect(delivery.payload.data).toMatchObject({
      contact: { id: contact.id, email, is_subscribed: true },
      topics: [{ topic_id: topic.id, is_subscribed: false }],
    });
    expect(received.filter((d) => d.path === path)).toHaveLength(1);
  });
});
