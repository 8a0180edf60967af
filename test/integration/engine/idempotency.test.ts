import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { listExecutions } from '../support/executions.js';

const address = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;

describe('POST /client/events with an idempotency_key', () => {
  it('replays the original queue record with 200 for the same key and body (async)', async () => {
    // Prepare
    const client = await createTestClient();
    const body = { type: 'signup', email: address('lin'), auto_create_contact: true, idempotency_key: 'signup-lin' };
    const first = await call('POST', '/client/events', { key: client.api_key, body });

    // Act: the same request, keys in another order (the same JSON request)
    const { idempotency_key, ...rest } = body;
    const again = await call('POST', '/client/events', { key: client.api_key, body: { idempotency_key, ...rest } });

    // Assess
    expect(first.status).toBe(202);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ success: true, message: 'Event already accepted' });
    expect(again.body.data).toMatchObject({
      id: first.body.data.id,
      event_id: first.body.data.id,
      idempotency_key: 'signup-lin',
      payload: body,
    });
    expect(again.body.data.created_at).toBe(first.body.data.created_at);
  });

  it('replays the processed Event with 200 for the same key and body (sync), without processing it again', async () => {
    // Prepare
    const client = await createTestClient();
    const body = { type: 'signup', email: address('sync'), auto_create_contact: true, idempotency_key: 'sync-1' };
    const first = await call('POST', '/client/events?sync=true', { key: client.api_key, body });

    // Act
    const again = await call('POST', '/client/events?sync=true', { key: client.api_key, body });

    // Assess
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body.message).toBe('Event already processed');
    expect(again.body.data).toEqual(first.body.data);
    expect((await listExecutions(client.api_key)).map((e) => e.id).sort()).toEqual(
      [...first.body.data.execution_ids].sort(),
    );
  });

  it('answers 409 idempotency_conflict for the same key with another body, and keeps the original', async () => {
    // Prepare
    const client = await createTestClient();
    const email = address('conflict');
    const first = await call('POST', '/client/events?sync=true', {
      key: client.api_key,
      body: { type: 'signup', email, auto_create_contact: true, idempotency_key: 'k-1' },
    });

    // Act
    const other = await call('POST', '/client/events?sync=true', {
      key: client.api_key,
      body: { type: 'signup', email, auto_create_contact: true, plan: 'pro', idempotency_key: 'k-1' },
    });

    // Assess
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ success: false, data: {} });
    expect(other.body.errors).toEqual([
      {
        condition: 'idempotency_conflict',
        key: 'idempotency_key',
        error: 'This idempotency_key was used with a different request body',
      },
    ]);
    expect((await listExecutions(client.api_key)).map((e) => e.id).sort()).toEqual(
      [...first.body.data.execution_ids].sort(),
    );
  });

  it('keeps keys per client: another client may use the same key for its own event', async () => {
    // Prepare
    const a = await createTestClient();
    const b = await createTestClient();
    const body = { type: 'custom', email: address('shared'), auto_create_contact: true, idempotency_key: 'same-key' };
    const first = await call('POST', '/client/events', { key: a.api_key, body });

    // Act
    const second = await call('POST', '/client/events', { key: b.api_key, body });

    // Assess
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(second.body.data.id).not.toBe(first.body.data.id);
    expect(second.body.data.client_id).toBe(b.id);
  });

  it('stores exactly one event for 20 concurrent identical requests: one 202, nineteen 200 naming it', async () => {
    // Prepare
    const client = await createTestClient();
    const body = {
      type: 'signup',
      email: address('race'),
      auto_create_contact: true,
      idempotency_key: `race-${randomUUID()}`,
    };

    // Act
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', '/client/events', { key: client.api_key, body })),
    );

    // Assess: one event named by every answer
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array(19).fill(200), 202]);
    const ids = new Set(answers.map((a) => a.body.data.id));
    expect(ids.size).toBe(1);
    // …processed once: one contact, one execution per triggered workflow
    const [eventId] = ids;
    const processed = await eventually('the raced event processed', async () => {
      const res = await call('GET', `/client/events/${eventId}`, { key: client.api_key });
      return res.body.data?.processed ? res.body.data : undefined;
    });
    const executions = await listExecutions(client.api_key);
    expect(executions.map((e) => e.workflow_id).sort()).toEqual([1, 2]);
    expect(executions.every((e) => e.event_id === eventId && e.contact_id === processed.contact_id)).toBe(true);
  });

  it('stores exactly one event for 20 concurrent identical sync requests: one 201, nineteen 200', async () => {
    // Prepare
    const client = await createTestClient();
    const body = {
      type: 'signup',
      email: address('syncrace'),
      auto_create_contact: true,
      idempotency_key: `race-${randomUUID()}`,
    };

    // Act
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', '/client/events?sync=true', { key: client.api_key, body })),
    );

    // Assess
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(19).fill(200), 201]);
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    const executions = await listExecutions(client.api_key);
    expect(executions.map((e) => e.workflow_id).sort()).toEqual([1, 2]);
  });
});
