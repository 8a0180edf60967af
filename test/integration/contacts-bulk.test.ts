import { describe, expect, it } from 'vitest';
import { request } from './support/api.js';
import { createTestClient } from './support/clients.js';

/** POST /client/contacts/bulk over HTTP against the local runtime (DynamoDB Local). */
const bulk = (key: string, contacts: unknown[], overwrite?: boolean) =>
  request('POST', '/client/contacts/bulk', {
    key,
    body: { contacts, ...(overwrite === undefined ? {} : { overwrite_blank_fields: overwrite }) },
  });
const getContact = (key: string, email: string) =>
  request('GET', `/client/contacts/${encodeURIComponent(email)}`, { key });

describe('POST /client/contacts/bulk', () => {
  it('creates, updates, leaves unchanged and fails rows of one request independently', async () => {
    // Prepare
    const { api_key: key } = await createTestClient();
    const existing = await request('POST', '/client/contacts', {
      key,
      body: { email: 'kept@example.com', first_name: 'Kept' },
    });
    const renamed = await request('POST', '/client/contacts', {
      key,
      body: { email: 'renamed@example.com', first_name: 'Old' },
    });

    // Act
    const res = await bulk(key, [
      { email: 'new@example.com', first_name: 'New', timezone: 'EST', custom_fields: { plan: 'pro' } },
      { email: 'Renamed@Example.com', first_name: 'Fresh' },
      { email: 'kept@example.com', first_name: 'Kept' },
      { email: 'broken', timezone: 'Mars/Olympus' },
    ]);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      errors: [],
      message: 'Imported: 1 created, 1 updated, 1 unchanged, 1 failed',
    });
    const { results, ...counts } = res.body.data;
    expect(counts).toEqual({ created: 1, updated: 1, unchanged: 1, failed: 1 });
    expect(results).toEqual([
      { index: 0, email: 'new@example.com', status: 'created', contact_id: expect.any(Number), errors: [] },
      { index: 1, email: 'renamed@example.com', status: 'updated', contact_id: renamed.body.data.id, errors: [] },
      { index: 2, email: 'kept@example.com', status: 'unchanged', contact_id: existing.body.data.id, errors: [] },
      {
        index: 3,
        email: 'broken',
        status: 'failed',
        contact_id: null,
        errors: [
          { condition: 'format', key: 'contacts.3.email', error: 'Must be a valid e-mail address' },
          {
            condition: 'format',
            key: 'contacts.3.timezone',
            error: 'Must be an IANA time zone name such as Europe/Paris',
          },
        ],
      },
    ]);
    expect(res.body.meta).toMatchObject({
      request_id: expect.any(String),
      dynamodb: { requests: expect.any(Number), waves: expect.any(Number) },
    });
    const created = await getContact(key, 'new@example.com');
    expect(created.body.data).toMatchObject({
      id: results[0].contact_id,
      first_name: 'New',
      timezone: 'America/New_York',
      source: 1,
      custom_field_values: { plan: 'pro' },
    });
    expect((await getContact(key, 'renamed@example.com')).body.data.first_name).toBe('Fresh');
    expect((await getContact(key, 'kept@example.com')).body.data.updated_at).toBe(existing.body.data.updated_at);
  });

  it('keeps stored values for empty fields by default and clears them with overwrite_blank_fields', async () => {
    const { api_key: key } = await createTestClient();
    await request('POST', '/client/contacts', {
      key,
      body: {
        email: 'ann@example.com',
        first_name: 'Ann',
        last_name: 'Lee',
        company: 'Acme',
        client_contact_id: 'crm-1',
      },
    });

    const keep = await bulk(key, [{ email: 'ann@example.com', last_name: '', company: null, client_contact_id: '' }]);
    expect(keep.body.data.results[0].status).toBe('unchanged');
    expect((await getContact(key, 'ann@example.com')).body.data).toMatchObject({
      last_name: 'Lee',
      company: 'Acme',
      client_contact_id: 'crm-1',
    });

    const clear = await bulk(
      key,
      [{ email: 'ann@example.com', last_name: '', company: null, client_contact_id: '' }],
      true,
    );
    expect(clear.body.data.results[0].status).toBe('updated');
    expect((await getContact(key, 'ann@example.com')).body.data).toMatchObject({
      first_name: 'Ann',
      last_name: null,
      company: null,
      client_contact_id: null,
    });
    // The uid lock went with the uid: another contact may take it now.
    const reuse = await bulk(key, [{ email: 'bob@example.com', client_contact_id: 'crm-1' }]);
    expect(reuse.body.data.results[0].status).toBe('created');
  });

  it('applies rows with the same e-mail in order; the later wins and both results name each other', async () => {
    const { api_key: key } = await createTestClient();
    const res = await bulk(key, [
      { email: 'dup@example.com', first_name: 'First', company: 'Acme' },
      { email: 'other@example.com' },
      { email: 'DUP@example.com', first_name: 'Second' },
    ]);
    const [a, , b] = res.body.data.results;
    expect(a).toMatchObject({ status: 'created', duplicates: [2] });
    expect(b).toMatchObject({ status: 'updated', duplicates: [0], contact_id: a.contact_id });
    expect((await getContact(key, 'dup@example.com')).body.data).toMatchObject({
      first_name: 'Second',
      company: 'Acme',
    });
  });

  it('fails a row whose client_contact_id belongs to another contact, without taking it', async () => {
    const { api_key: key } = await createTestClient();
    const owner = await request('POST', '/client/contacts', {
      key,
      body: { email: 'owner@example.com', client_contact_id: 'crm-7' },
    });
    await request('POST', '/client/contacts', {
      key,
      body: { email: 'thief@example.com', client_contact_id: 'crm-8' },
    });

    const res = await bulk(key, [
      { email: 'thief@example.com', client_contact_id: 'crm-7' },
      { email: 'newcomer@example.com', client_contact_id: 'crm-7' },
      { email: 'fine@example.com', client_contact_id: 'crm-9' },
    ]);

    expect(res.body.data.results.map((r: { status: string }) => r.status)).toEqual(['failed', 'failed', 'created']);
    for (const [i, result] of res.body.data.results.slice(0, 2).entries()) {
      expect(result.errors).toEqual([
        {
          condition: 'unique',
          key: `contacts.${i}.client_contact_id`,
          error: 'This client_contact_id belongs to another contact',
        },
      ]);
    }
    expect((await getContact(key, 'thief@example.com')).body.data.client_contact_id).toBe('crm-8');
    expect((await getContact(key, 'owner@example.com')).body.data).toMatchObject({
      id: owner.body.data.id,
      client_contact_id: 'crm-7',
    });
  });

  it('unsubscribes through an import but never resubscribes an unsubscribed contact', async () => {
    const { api_key: key } = await createTestClient();
    await request('POST', '/client/contacts', { key, body: { email: 'gone@example.com' } });
    await request('PATCH', '/client/contacts/gone@example.com/subscription', {
      key,
      body: { is_subscribed: false, unsubscribe_reason: 'link' },
    });

    const res = await bulk(key, [
      { email: 'gone@example.com', is_subscribed: true },
      { email: 'leaving@example.com', is_subscribed: false, unsubscribe_reason: 'asked by phone' },
    ]);

    expect(res.body.data.results.map((r: { status: string }) => r.status)).toEqual(['unchanged', 'created']);
    expect((await getContact(key, 'gone@example.com')).body.data).toMatchObject({
      is_subscribed: false,
      unsubscribe_reason: 'link',
    });
    expect((await getContact(key, 'leaving@example.com')).body.data).toMatchObject({
      is_subscribed: false,
      unsubscribe_reason: 'asked by phone',
    });
  });

  it('accepts 1000 rows within the request budget and refuses 1001 with 413, writing nothing', async () => {
    const { api_key: key } = await createTestClient();
    const rows = (n: number, tag: string) =>
      Array.from({ length: n }, (_, i) => ({
        email: `${tag}${i}@example.com`,
        first_name: `N${i}`,
        client_contact_id: `${tag}-${i}`,
      }));

    const refused = await bulk(key, rows(1001, 'over'));
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ success: false, data: {}, errors: [{ condition: 'max', key: 'contacts' }] });
    expect((await getContact(key, 'over0@example.com')).status).toBe(404);

    const accepted = await bulk(key, rows(1000, 'ok'));
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ created: 1000, failed: 0 });
    expect(accepted.body.meta.dynamodb.requests).toBeLessThanOrEqual(60);
    expect(accepted.body.meta.dynamodb.waves).toBeLessThanOrEqual(6);
    expect((await getContact(key, 'ok999@example.com')).body.data.client_contact_id).toBe('ok-999');

    const again = await bulk(
      key,
      rows(1000, 'ok').map((r) => ({ ...r, first_name: `${r.first_name}!` })),
    );
    expect(again.body.data).toMatchObject({ updated: 1000, failed: 0 });
    expect(again.body.meta.dynamodb.requests).toBeLessThanOrEqual(60);
  });

  it("never touches another client's contacts: the same e-mail is a separate contact per client", async () => {
    const a = await createTestClient();
    const b = await createTestClient();
    const mine = await request('POST', '/client/contacts', {
      key: a.api_key,
      body: { email: 'shared@example.com', first_name: 'A', client_contact_id: 'same-uid' },
    });

    const res = await bulk(b.api_key, [
      { email: 'shared@example.com', first_name: 'B', client_contact_id: 'same-uid' },
    ]);

    expect(res.body.data.results[0]).toMatchObject({ status: 'created' });
    expect(res.body.data.results[0].contact_id).not.toBe(mine.body.data.id);
    expect((await getContact(a.api_key, 'shared@example.com')).body.data).toMatchObject({
      id: mine.body.data.id,
      first_name: 'A',
    });
    expect(
      (await request('GET', `/client/contacts/${res.body.data.results[0].contact_id}`, { key: a.api_key })).status,
    ).toBe(404);
  });

  it.each([
    ['no contacts field', { overwrite_blank_fields: true }, 422, { condition: 'required', key: 'contacts' }],
    ['an empty list', { contacts: [] }, 422, { condition: 'min', key: 'contacts' }],
    ['contacts that is not a list', { contacts: {} }, 422, { condition: 'type', key: 'contacts' }],
  ])('answers %s with %i', async (_what, body, status, item) => {
    const { api_key: key } = await createTestClient();
    const res = await request('POST', '/client/contacts/bulk', { key, body });
    expect(res.status).toBe(status);
    expect(res.body.errors).toEqual([expect.objectContaining(item)]);
  });

  it('answers 415 for a body that is not JSON and 401 without a key', async () => {
    const { api_key: key } = await createTestClient();
    const res = await request('POST', '/client/contacts/bulk', {
      key,
      rawBody: 'email\na@b.co',
      headers: { 'content-type': 'text/csv' },
    });
    expect(res.status).toBe(415);
    expect((await request('POST', '/client/contacts/bulk', { body: { contacts: [{ email: 'a@b.co' }] } })).status).toBe(
      401,
    );
  });
});
