import { describe, expect, it } from 'vitest';
import { request, RFC3339_UTC } from './support/api.js';
import { createTestClient } from './support/clients.js';

describe('POST /client/contacts', () => {
  it('creates a contact and shows every field of the SPEC Contact', async () => {
    const client = await createTestClient();
    const res = await request('POST', '/client/contacts', {
      key: client.api_key,
      body: {
        email: '  Ada.Lovelace@Example.COM ',
        first_name: 'Ada',
        last_name: 'Lovelace',
        company: 'Analytical Engines',
        phone: '+44 20 7946 0000',
        timezone: 'Europe/London',
        client_contact_id: 'u-1',
        external_id: 'crm-1',
        signup_source: 'landing-page',
        source: 'form',
        last_purchase_at: '2026-01-02T03:04:05+02:00',
        custom_fields: { plan: 'pro', seats: 5 },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const c = res.body.data;
    expect(c).toEqual({
      id: expect.any(Number),
      client_id: client.id,
      client_contact_id: 'u-1',
      external_id: 'crm-1',
      email: 'ada.lovelace@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      company: 'Analytical Engines',
      phone: '+44 20 7946 0000',
      timezone: 'Europe/London',
      is_subscribed: true,
      topic_subscriptions: [],
      unsubscribe_reason: null,
      unsubscribed_at: null,
      last_purchase_at: '2026-01-02T01:04:05.000Z',
      signup_source: 'landing-page',
      source: 3,
      custom_fields: [expect.any(Number), expect.any(Number)],
      custom_field_values: { plan: 'pro', seats: 5 },
      tags: [],
      active_states: 0,
      active_workflow_count: 0,
      health_score: 50, // never mailed: neutral (health-score.ts)
      total_emails_sent: 0,
      total_emails_opened: 0,
      total_emails_clicked: 0,
      last_activity_at: null,
      last_email_opened_at: null,
      last_email_clicked_at: null,
      last_workflow_at: null,
      created_by: expect.any(Number),
      created_at: expect.stringMatching(RFC3339_UTC),
      updated_at: expect.stringMatching(RFC3339_UTC),
    });
    expect(c.custom_fields[0]).toBeLessThan(c.custom_fields[1]);
  });

  it.each([
    ['api', 1],
    [0, 0],
    ['import', 2],
    [4, 4],
  ])('accepts source %j as %i', async (source, expected) => {
    const client = await createTestClient();
    const res = await request('POST', '/client/contacts', { key: client.api_key, body: { email: 's@x.test', source } });
    expect(res.status).toBe(201);
    expect(res.body.data.source).toBe(expected);
  });

  it('defaults source to api (1) and reuses custom field ids across contacts', async () => {
    const client = await createTestClient();
    const a = await request('POST', '/client/contacts', {
      key: client.api_key,
      body: { email: 'a@x.test', custom_fields: { plan: 'a' } },
    });
    const b = await request('POST', '/client/contacts', {
      key: client.api_key,
      body: { email: 'b@x.test', custom_fields: { plan: 'b' } },
    });
    expect(a.body.data.source).toBe(1);
    expect(b.body.data.custom_fields).toEqual(a.body.data.custom_fields);
  });

  it('answers 422 naming every bad field at once and writes nothing', async () => {
    const client = await createTestClient();
    const res = await request('POST', '/client/contacts', {
      key: client.api_key,
      body: {
        email: 'not-an-email',
        first_name: 42,
        timezone: 'Mars/Olympus',
        source: 'carrier-pigeon',
        is_subscribed: 'yes',
        last_purchase_at: 'yesterday',
        custom_fields: { '1bad': 'x' },
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.data).toEqual({});
    const keys = res.body.errors.map((e: { key: string }) => e.key).sort();
    expect(keys).toEqual([
      'custom_fields.1bad',
      'email',
      'first_name',
      'is_subscribed',
      'last_purchase_at',
      'source',
      'timezone',
    ]);
    for (const item of res.body.errors)
      expect(item).toEqual({ condition: expect.any(String), error: expect.any(String), key: expect.any(String) });
    expect(res.body.errors.find((e: { key: string }) => e.key === 'email').condition).toBe('format');
    expect((await request('GET', '/client/contacts/not-an-email', { key: client.api_key })).status).toBe(404);
  });

  it('answers 422 required when email is missing', async () => {
    const client = await createTestClient();
    const res = await request('POST', '/client/contacts', { key: client.api_key, body: { first_name: 'x' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ condition: 'required', error: expect.any(String), key: 'email' }]);
  });

  it('answers 400 malformed for invalid JSON and 415 for another content type', async () => {
    const client = await createTestClient();
    const bad = await request('POST', '/client/contacts', {
      key: client.api_key,
      rawBody: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ condition: 'malformed', key: 'body' });
    const text = await request('POST', '/client/contacts', {
      key: client.api_key,
      rawBody: 'email=a@b.c',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(text.body.success).toBe(false);
  });

  it('answers 409 unique on a duplicate e-mail, case-insensitively', async () => {
    const client = await createTestClient();
    expect(
      (await request('POST', '/client/contacts', { key: client.api_key, body: { email: 'dup@x.test' } })).status,
    ).toBe(201);
    const res = await request('POST', '/client/contacts', { key: client.api_key, body: { email: 'DUP@X.test' } });
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual([{ condition: 'unique', error: expect.any(String), key: 'email' }]);
  });

  it('answers 409 on a client_contact_id another contact holds, leaving no e-mail lock behind', async () => {
    const client = await createTestClient();
    await request('POST', '/client/contacts', {
      key: client.api_key,
      body: { email: 'one@x.test', client_contact_id: 'u-9' },
    });
    const res = await request('POST', '/client/contacts', {
      key: client.api_key,
      body: { email: 'two@x.test', client_contact_id: 'u-9' },
    });
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatchObject({ condition: 'unique', key: 'client_contact_id' });
    // The failed transaction wrote nothing: the e-mail is still free.
    expect(
      (await request('POST', '/client/contacts', { key: client.api_key, body: { email: 'two@x.test' } })).status,
    ).toBe(201);
  });

  it('creates exactly one contact under 20 concurrent creates of one e-mail', async () => {
    const client = await createTestClient();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request('POST', '/client/contacts', {
          key: client.api_key,
          body: { email: 'race@x.test', first_name: `n${i}` },
        }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const winner = results.find((r) => r.status === 201)!;
    const stored = await request('GET', '/client/contacts/race@x.test', { key: client.api_key });
    expect(stored.body.data.id).toBe(winner.body.data.id);
  });

  it('lets two clients hold the same e-mail independently', async () => {
    const a = await createTestClient();
    const b = await createTestClient();
    expect(
      (await request('POST', '/client/contacts', { key: a.api_key, body: { email: 'shared@x.test' } })).status,
    ).toBe(201);
    expect(
      (await request('POST', '/client/contacts', { key: b.api_key, body: { email: 'shared@x.test' } })).status,
    ).toBe(201);
  });
});

describe('GET /client/contacts/{id}', () => {
  it('finds a contact by id and by e-mail (URL-encoded, any case)', async () => {
    const client = await createTestClient();
    const created = await request('POST', '/client/contacts', {
      key: client.api_key,
      body: { email: 'find.me+tag@x.test' },
    });
    const byId = await request('GET', `/client/contacts/${created.body.data.id}`, { key: client.api_key });
    const byEmail = await request('GET', `/client/contacts/${encodeURIComponent('FIND.me+tag@X.test')}`, {
      key: client.api_key,
    });
    expect(byId.status).toBe(200);
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.data).toEqual(byId.body.data);
  });

  it("answers 404 for another client's contact, by id and by e-mail", async () => {
    const a = await createTestClient();
    const b = await createTestClient();
    const created = await request('POST', '/client/contacts', { key: a.api_key, body: { email: 'private@x.test' } });
    for (const ref of [String(created.body.data.id), 'private@x.test']) {
      const res = await request('GET', `/client/contacts/${encodeURIComponent(ref)}`, { key: b.api_key });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, data: {} });
      expect(res.body.errors).toEqual([{ condition: 'not_found', error: expect.any(String), key: 'id' }]);
    }
    const patch = await request('PATCH', `/client/contacts/${created.body.data.id}/subscription`, {
      key: b.api_key,
      body: { is_subscribed: false },
    });
    expect(patch.status).toBe(404);
    const still = await request('GET', `/client/contacts/${created.body.data.id}`, { key: a.api_key });
    expect(still.body.data.is_subscribed).toBe(true);
  });
});

describe('PATCH /client/contacts/{id}/subscription', () => {
  it('unsubscribes with a reason and resubscribes, by id and by e-mail', async () => {
    const client = await createTestClient();
    const created = await request('POST', '/client/contacts', { key: client.api_key, body: { email: 'sub@x.test' } });
    const id = created.body.data.id;

    const off = await request('PATCH', `/client/contacts/${id}/subscription`, {
      key: client.api_key,
      body: { is_subscribed: false, unsubscribe_reason: 'Too many e-mails' },
    });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({
      id,
      is_subscribed: false,
      unsubscribe_reason: 'Too many e-mails',
      unsubscribed_at: expect.stringMatching(RFC3339_UTC),
    });

    const on = await request('PATCH', '/client/contacts/SUB@x.test/subscription', {
      key: client.api_key,
      body: { is_subscribed: true },
    });
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ id, is_subscribed: true, unsubscribe_reason: null, unsubscribed_at: null });

    const stored = await request('GET', `/client/contacts/${id}`, { key: client.api_key });
    expect(stored.body.data).toMatchObject({ is_subscribed: true, unsubscribe_reason: null, unsubscribed_at: null });
  });

  it('answers 422 when is_subscribed is missing or not a boolean', async () => {
    const client = await createTestClient();
    const created = await request('POST', '/client/contacts', { key: client.api_key, body: { email: 'v@x.test' } });
    const missing = await request('PATCH', `/client/contacts/${created.body.data.id}/subscription`, {
      key: client.api_key,
      body: {},
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([{ condition: 'required', error: expect.any(String), key: 'is_subscribed' }]);
    const wrong = await request('PATCH', `/client/contacts/${created.body.data.id}/subscription`, {
      key: client.api_key,
      body: { is_subscribed: 'no' },
    });
    expect(wrong.body.errors[0]).toMatchObject({ condition: 'type', key: 'is_subscribed' });
  });

  it('answers 404 for an unknown contact', async () => {
    const client = await createTestClient();
    const res = await request('PATCH', '/client/contacts/999999/subscription', {
      key: client.api_key,
      body: { is_subscribed: false },
    });
    expect(res.status).toBe(404);
  });

  it('creates a contact already unsubscribed when unsubscribed_at is given', async () => {
    const client = await createTestClient();
    const res = await request('POST', '/client/contacts', {
      key: client.api_key,
      body: { email: 'gone@x.test', unsubscribed_at: '2025-05-01T00:00:00Z', unsubscribe_reason: 'imported' },
    });
    expect(res.body.data).toMatchObject({
      is_subscribed: false,
      unsubscribed_at: '2025-05-01T00:00:00.000Z',
      unsubscribe_reason: 'imported',
    });
    const contradiction = await request('POST', '/client/contacts', {
      key: client.api_key,
      body: { email: 'odd@x.test', is_subscribed: true, unsubscribed_at: '2025-05-01T00:00:00Z' },
    });
    expect(contradiction.status).toBe(422);
    expect(contradiction.body.errors[0]).toMatchObject({ key: 'unsubscribed_at' });
  });
});
