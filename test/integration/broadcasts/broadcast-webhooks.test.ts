import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { webhookReceiver } from '../support/webhook-receiver.js';

/** A broadcast's progress webhooks over HTTP: a subscribed receiver gets started and completed, once each, signed. */
const receiver = webhookReceiver();
const { received } = receiver;

describe('broadcast webhooks', () => {
  it('tells a receiver subscribed to broadcast.* that a small broadcast started and completed, once each', async () => {
    // Prepare
    const { api_key: key } = await createTestClient('scale');
    const path = `/broadcasts-${randomUUID().slice(0, 8)}`;
    const hook = await call('POST', '/client/webhooks', {
      key,
      body: { url: `${receiver.base}${path}`, event_types: ['broadcast.started', 'broadcast.completed'] },
    });
    expect(hook.status, hook.text).toBe(201);
    const secret = hook.body.data.secret as string;
    const run = randomUUID().slice(0, 8);
    for (const n of [1, 2]) {
      const made = await call('POST', '/client/contacts', { key, body: { email: `bw-${n}-${run}@example.com` } });
      expect(made.status, made.text).toBe(201);
    }
    const created = await call('POST', '/client/broadcasts', {
      key,
      body: {
        name: 'Two subscribers',
        definition: {
          audience: { all_subscribed: true },
          category: 'marketing',
          variants: [{ template_id: 1, subject: 'Hello' }],
          schedule: { mode: 'now' },
        },
      },
    });
    const id = created.body.data.id as number;

    // Act
    const scheduled = await call('POST', `/client/broadcasts/${id}/schedule`, { key, body: { draft_version: 1 } });
    expect(scheduled.status, scheduled.text).toBe(200);
    const mine = () => received.filter((d) => d.path === path);
    await eventually('both broadcast deliveries', async () => (mine().length >= 2 ? true : undefined), {
      timeoutMs: 60_000,
    });
    await new Promise((r) => setTimeout(r, 2_000));

    // Assess
    const byType = new Map(mine().map((d) => [d.payload.type as string, d]));
    expect(
      mine()
        .map((d) => d.payload.type)
        .sort(),
    ).toEqual(['broadcast.completed', 'broadcast.started']);
    for (const d of mine()) {
      const verified = new Webhook(secret).verify(d.body, {
        'webhook-id': String(d.headers['webhook-id']),
        'webhook-timestamp': String(d.headers['webhook-timestamp']),
        'webhook-signature': String(d.headers['webhook-signature']),
      });
      expect(verified).toEqual(d.payload);
    }
    const read = await call('GET', `/client/broadcasts/${id}`, { key });
    expect(byType.get('broadcast.started')!.payload.data).toEqual({
      broadcast_id: id,
      name: 'Two subscribers',
      audience: { all_subscribed: true },
      category: 'marketing',
      recipients: null,
      status: 'snapshotting',
      started_at: read.body.data.started_at,
      completed_at: null,
    });
    expect(byType.get('broadcast.completed')!.payload.data).toEqual({
      broadcast_id: id,
      name: 'Two subscribers',
      audience: { all_subscribed: true },
      category: 'marketing',
      recipients: 2,
      status: 'sent',
      started_at: read.body.data.started_at,
      completed_at: read.body.data.completed_at,
    });
  });
});
