import { describe, expect, it } from 'vitest';
import { request } from '../support/api.js';
import { createTestClient } from '../support/clients.js';

/**
 * Storable values: numbers and keys DynamoDB cannot store are a 422 naming the field, never a 500; a bulk row with one
 * is invalid (never "send this row again") and its valid neighbours are written.
 */
const MAX = 'Must be at most 9007199254740991 (2^53 − 1)';
const TINY = 'Must be 0 or at least 1e-130 in magnitude';

/** The body as raw JSON text, so the numbers reach the server exactly as written here. */
const raw = (key: string, method: string, path: string, text: string) =>
  request(method, path, { key, rawBody: text, headers: { 'content-type': 'application/json' } });

describe('input the store cannot hold', () => {
  it.each([
    ['"amount": 58706923201866990', { condition: 'max', key: 'amount', error: MAX }],
    ['"amount": 1e300', { condition: 'max', key: 'amount', error: MAX }],
    ['"metadata": {"n": 1e-200}', { condition: 'min', key: 'metadata.n', error: TINY }],
    ['"metadata": {"": 1}', { condition: 'min', key: 'metadata', error: 'Must not have an empty key' }],
    ['"metadata": {"a": [{"b": -1e300}]}', { condition: 'max', key: 'metadata.a.0.b', error: `${MAX} in magnitude` }],
    // JSON.parse reads a number beyond the double range as Infinity.
    ['"metadata": {"a": -1e400}', { condition: 'type', key: 'metadata.a', error: 'Must be a finite number' }],
  ])('POST /client/events with %s answers 422 naming the field, and stores no event', async (member, item) => {
    // Prepare
    const { api_key: key } = await createTestClient();
    const idempotency = `unstorable-${Math.random()}`;

    // Act
    const res = await raw(
      key,
      'POST',
      '/client/events',
      `{"type": "signup", "email": "a@example.com", "idempotency_key": "${idempotency}", ${member}}`,
    );

    // Assess
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, data: {}, errors: [item] });
    // Nothing was kept under the idempotency key: a valid body with it is a new event, not a replay or a conflict.
    const fresh = await request('POST', '/client/events', {
      key,
      body: { type: 'signup', email: 'a@example.com', idempotency_key: idempotency },
    });
    expect(fresh.status).toBe(202);
  });

  // Members the event does not name are kept in its payload: the same rule holds them (an outside fuzzer's 500).
  it.each([
    [
      'a number beyond 2^53 − 1',
      '"x": 3.01256131608584e+16',
      { condition: 'max', key: 'x', error: `${MAX} in magnitude` },
    ],
    ['a number below 1e-130, nested', '"x": {"y": [1e-200]}', { condition: 'min', key: 'x.y.0', error: TINY }],
    ['an empty key inside it', '"x": {"": true}', { condition: 'min', key: 'x', error: 'Must not have an empty key' }],
    [
      'a 129-character name',
      `"${'k'.repeat(129)}": 1`,
      { condition: 'max', key: 'k'.repeat(40), error: 'Keys must be at most 128 characters' },
    ],
    [
      '33 000 characters',
      `"x": "${'x'.repeat(33_000)}"`,
      { condition: 'max', key: '', error: 'Must be at most 32768 bytes as JSON' },
    ],
    // JSON.parse makes `__proto__` an own member, which a parsed object would turn into a prototype and lose.
    [
      'a __proto__ name',
      '"__proto__": {"a": 1e300}',
      { condition: 'format', key: '__proto__', error: 'The key __proto__ is not allowed' },
    ],
  ])(
    'POST /client/events with an unknown member holding %s answers 422 at its key, and stores no event',
    async (_what, member, item) => {
      const { api_key: key } = await createTestClient();

      const res = await raw(
        key,
        'POST',
        '/client/events',
        `{"type": "signup", "email": "a@example.com", "idempotency_key": "u1", ${member}}`,
      );

      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ success: false, data: {}, errors: [item] });
      const fresh = await request('POST', '/client/events', {
        key,
        body: { type: 'signup', email: 'a@example.com', idempotency_key: 'u1' },
      });
      expect(fresh.status).toBe(202);
    },
  );

  it('POST /client/events keeps a storable unknown member in the payload, exactly as sent', async () => {
    const { api_key: key } = await createTestClient();

    const body =
      '{"type": "signup", "email": "a@example.com", "idempotency_key": "k1", "x": 9007199254740991, "y": {"z": [1.5, "s"]}}';

    const res = await raw(key, 'POST', '/client/events', body);

    expect(res.status).toBe(202);
    const payload = {
      type: 'signup',
      email: 'a@example.com',
      idempotency_key: 'k1',
      x: 9007199254740991,
      y: { z: [1.5, 's'] },
    };
    expect(res.body.data.payload).toEqual(payload);
    // Read back from the store: the replay answers the stored queue record.
    const replay = await raw(key, 'POST', '/client/events', body);
    expect(replay.status).toBe(200);
    expect(replay.body.data).toMatchObject({ id: res.body.data.id, payload });
  });

  it('POST /client/contacts with an unstorable custom field answers 422 and creates nothing', async () => {
    const { api_key: key } = await createTestClient();

    const res = await raw(
      key,
      'POST',
      '/client/contacts',
      '{"email": "big@example.com", "custom_fields": {"x": 1e300, "y": 1e-200}}',
    );

    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { condition: 'max', key: 'custom_fields.x', error: MAX },
      { condition: 'min', key: 'custom_fields.y', error: TINY },
    ]);
    expect((await request('GET', '/client/contacts/big%40example.com', { key })).status).toBe(404);
  });

  it('PATCH /client/contacts/{id} with an unstorable custom field answers 422 and changes nothing', async () => {
    const { api_key: key } = await createTestClient();
    const created = await request('POST', '/client/contacts', {
      key,
      body: { email: 'keep@example.com', custom_fields: { x: 1 } },
    });

    const res = await raw(
      key,
      'PATCH',
      `/client/contacts/${created.body.data.id}`,
      '{"custom_fields": {"x": 58706923201866990}}',
    );

    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ condition: 'max', key: 'custom_fields.x', error: MAX }]);
    const after = await request('GET', `/client/contacts/${created.body.data.id}`, { key });
    expect(after.body.data).toMatchObject({ custom_field_values: { x: 1 }, updated_at: created.body.data.updated_at });
  });

  it('POST /client/contacts/bulk reports the bad row invalid and writes its valid neighbour', async () => {
    const { api_key: key } = await createTestClient();

    const res = await raw(
      key,
      'POST',
      '/client/contacts/bulk',
      '{"contacts":[{"email":"ok1@example.com"},{"email":"bad1@example.com","custom_fields":{"x":1e300}}]}',
    );

    expect(res.status).toBe(200);
    const { results, ...counts } = res.body.data;
    expect(counts).toEqual({ created: 1, updated: 0, unchanged: 0, failed: 1 });
    expect(results).toEqual([
      { index: 0, email: 'ok1@example.com', status: 'created', contact_id: expect.any(Number), errors: [] },
      {
        index: 1,
        email: 'bad1@example.com',
        status: 'failed',
        contact_id: null,
        errors: [{ condition: 'max', key: 'contacts.1.custom_fields.x', error: MAX }],
      },
    ]);
    expect((await request('GET', '/client/contacts/ok1%40example.com', { key })).body.data.id).toBe(
      results[0].contact_id,
    );
    expect((await request('GET', '/client/contacts/bad1%40example.com', { key })).status).toBe(404);
  });

  it('POST /client/email-templates/{id}/render-preview refuses an empty key in vars with 422', async () => {
    const { api_key: key } = await createTestClient();
    const template = await request('POST', '/client/email-templates', {
      key,
      body: { name: 'T', subject: 'Hi', html_body: '<p>Hi</p>' },
    });

    const res = await raw(
      key,
      'POST',
      `/client/email-templates/${template.body.data.id}/render-preview`,
      '{"vars": {"a": {"": 1e300}}}',
    );

    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ condition: 'min', key: 'vars.a', error: 'Must not have an empty key' }]);
  });
});
