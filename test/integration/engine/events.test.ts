import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, RFC3339_UTC } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { listExecutions } from '../support/executions.js';
import { clientItems } from '../support/partition.js';

const address = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;

/** SPEC's Event for an event of `type` with nothing but the contact reference: what the API answers after processing. */
const processedEvent = (fields: Record<string, unknown>) => ({
  id: expect.any(Number),
  client_id: expect.any(Number),
  contact_id: null,
  contact: null,
  type: expect.any(String),
  action: null,
  feature: null,
  plan: null,
  source: null,
  status: null,
  amount: null,
  upgrade: null,
  external_id: null,
  idempotency_key: null,
  metadata: {},
  ts: expect.stringMatching(RFC3339_UTC),
  processed: true,
  processed_at: expect.stringMatching(RFC3339_UTC),
  process_error: null,
  execution_ids: [],
  created_at: expect.stringMatching(RFC3339_UTC),
  ...fields,
});

/** Items a contact leaves in its client's partition (the contact and its unique locks). */
const contactItems = (items: Record<string, unknown>[]) =>
  items.filter((i) => /^(CONTACT|EMAIL|UID)#/.test(String(i['pk'])));

async function awaitProcessed(key: string, eventId: number) {
  return eventually(`event ${eventId} processed`, async () => {
    const res = await call('GET', `/client/events/${eventId}`, { key });
    return res.status === 200 && res.body.data.processed === true ? res : undefined;
  });
}

describe('POST /client/events (async)', () => {
  it('answers 202 with the queue record, then the queue processes the event', async () => {
    // Prepare
    const client = await createTestClient();
    const email = address('lin');
    const body = { type: 'signup', email, auto_create_contact: true, plan: 'pro', metadata: { utm: 'ads' } };

    // Act
    const res = await call('POST', '/client/events', { key: client.api_key, body });

    // Assess: the queue record
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ success: true, message: 'Event queued' });
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      event_id: res.body.data.id,
      client_id: client.id,
      idempotency_key: null,
      payload: body,
      status: 'queued',
      retryable: true,
      retry_count: 0,
      process_error: null,
      processed_at: null,
      created_at: expect.stringMatching(RFC3339_UTC),
    });

    // Assess: processed a moment later, with the contact it created and the executions it started
    const processed = await awaitProcessed(client.api_key, res.body.data.id);
    const executions = await listExecutions(client.api_key);
    expect(processed.body.data).toEqual(
      processedEvent({
        id: res.body.data.id,
        client_id: client.id,
        contact_id: expect.any(Number),
        contact: { email, first_name: null, last_name: null },
        type: 'signup',
        plan: 'pro',
        metadata: { utm: 'ads' },
        execution_ids: expect.arrayContaining(executions.map((e) => e.id)),
        created_at: res.body.data.created_at,
      }),
    );
    expect(executions.map((e) => e.workflow_id).sort()).toEqual([1, 2]);
    expect(processed.body.data.execution_ids).toHaveLength(2);
    const contact = await call('GET', `/client/contacts/${processed.body.data.contact_id}`, { key: client.api_key });
    expect(contact.body.data).toMatchObject({ email, tags: ['plan:pro', 'stage:signed_up'] });
  });
});

describe('POST /client/events: the contact', () => {
  it.each([
    ['an unknown e-mail without auto_create_contact', { type: 'trial_ending', email: 'nobody@example.com' }],
    [
      'an unknown uid, even with auto_create_contact (no address to create it with)',
      { type: 'signup', uid: 'crm-42', auto_create_contact: true },
    ],
  ])('processes %s with process_error contact_not_found and creates no contact', async (_case, body) => {
    // Prepare
    const client = await createTestClient();
    const probe = { emails: 'email' in body ? [body.email] : [], uids: 'uid' in body ? [body.uid] : [] };
    const before = contactItems(await clientItems(client.id, probe));

    // Act
    const res = await call('POST', '/client/events?sync=true', { key: client.api_key, body });

    // Assess
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual(
      processedEvent({ client_id: client.id, type: body.type, process_error: 'contact_not_found' }),
    );
    expect(before).toEqual([]);
    expect(contactItems(await clientItems(client.id, probe))).toEqual([]);
    expect(await listExecutions(client.api_key)).toEqual([]);
  });

  it('processes an async event for an unknown contact as failed with contact_not_found', async () => {
    // Prepare
    const client = await createTestClient();

    // Act
    const res = await call('POST', '/client/events', {
      key: client.api_key,
      body: { type: 'signup', email: address('ghost') },
    });

    // Assess
    expect(res.status).toBe(202);
    const processed = await awaitProcessed(client.api_key, res.body.data.id);
    expect(processed.body.data).toEqual(
      processedEvent({
        id: res.body.data.id,
        client_id: client.id,
        type: 'signup',
        process_error: 'contact_not_found',
      }),
    );
    expect(contactItems(await clientItems(client.id, { emails: [address('ghost')] }))).toEqual([]);
  });

  it('names the contact by uid (its client_contact_id)', async () => {
    // Prepare
    const client = await createTestClient();
    const email = address('uid');
    const created = await call('POST', '/client/contacts', {
      key: client.api_key,
      body: { email, client_contact_id: 'crm-7' },
    });

    // Act
    const res = await call('POST', '/client/events?mode=sync', {
      key: client.api_key,
      body: { type: 'feature_used', uid: 'crm-7' },
    });

    // Assess
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ contact_id: created.body.data.id, process_error: null, execution_ids: [] });
  });
});

describe('POST /client/events: ts', () => {
  it.each([
    ['more than 5 minutes in the future', 6 * 60_000, 'sync=true'],
    ['more than 5 minutes in the future (async)', 6 * 60_000, 'sync=false'],
  ])('answers 422 for a ts %s and creates no contact', async (_case, aheadMs, query) => {
    // Prepare
    const client = await createTestClient();
    const email = address('future');
    const ts = new Date(Date.now() + aheadMs).toISOString();
    const before = await clientItems(client.id, { emails: [email] });

    // Act
    const res = await call('POST', `/client/events?${query}`, {
      key: client.api_key,
      body: { type: 'signup', email, auto_create_contact: true, ts },
    });

    // Assess
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, data: {} });
    expect(res.body.errors).toEqual([
      { condition: 'max', key: 'ts', error: 'Must not be more than 5 minutes in the future' },
    ]);
    expect(await clientItems(client.id, { emails: [email] })).toEqual(before);
  });

  it('accepts a ts up to 5 minutes ahead (clock skew) and one in the past, and keeps it', async () => {
    // Prepare
    const client = await createTestClient();
    const ahead = new Date(Date.now() + 4 * 60_000).toISOString();
    const past = '2026-01-15T10:00:00.000Z';

    // Act
    const [soon, earlier] = await Promise.all([
      call('POST', '/client/events?sync=true', {
        key: client.api_key,
        body: { type: 'custom', email: address('a'), auto_create_contact: true, ts: ahead },
      }),
      call('POST', '/client/events?sync=true', {
        key: client.api_key,
        body: { type: 'custom', email: address('b'), auto_create_contact: true, ts: '2026-01-15T11:00:00+01:00' },
      }),
    ]);

    // Assess
    expect([soon.status, earlier.status]).toEqual([201, 201]);
    expect(soon.body.data.ts).toBe(ahead);
    expect(earlier.body.data.ts).toBe(past);
  });
});

describe('GET /client/events/{id}', () => {
  it.each([
    ['an id no event has', '1'],
    ['a value that is no id', 'abc'],
  ])('answers 404 for %s', async (_case, id) => {
    // Prepare
    const client = await createTestClient();

    // Act
    const res = await call('GET', `/client/events/${id}`, { key: client.api_key });

    // Assess
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, data: {}, errors: [{ condition: 'not_found', key: 'id' }] });
  });
});
