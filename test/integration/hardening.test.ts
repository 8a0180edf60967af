import { describe, expect, it } from 'vitest';
import { request, type ApiResponse } from './support/api.js';
import { createTestClient } from './support/clients.js';
import { clientItems } from './support/partition.js';

/** Hardening: inputs that used to reach a 500 or a silent wrong result. Each test failed before its fix. */

const expectEnvelopeError = (res: ApiResponse, status: number, item: Record<string, unknown>) => {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ success: false, data: {}, meta: { request_id: expect.any(String) } });
  expect(res.body.errors).toContainEqual(expect.objectContaining(item));
};

const PROTOTYPE_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'toLocaleString'];

describe('custom field names that are Object.prototype members', () => {
  it.each(PROTOTYPE_NAMES)('stores and shows %s like any other name on POST /client/contacts', async (name) => {
    const client = await createTestClient();
    const res = await request('POST', '/client/contacts', {
      key: client.api_key,
      body: { email: `${name.toLowerCase()}@example.com`, custom_fields: { [name]: 'v', plan: 'pro' } },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.custom_fields).toHaveLength(2);
    expect(res.body.data.custom_fields.every((id: unknown) => Number.isInteger(id))).toBe(true);
    expect(res.body.data.custom_field_values).toMatchObject({ [name]: 'v', plan: 'pro' });
  });

  it('accepts them in a bulk row and in a CSV custom.<name> column', async () => {
    const client = await createTestClient();
    const bulk = await request('POST', '/client/contacts/bulk', {
      key: client.api_key,
      body: { contacts: [{ email: 'bulk@example.com', custom_fields: { constructor: 'a', toString: 'b' } }] },
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body.data.results[0]).toMatchObject({ status: 'created' });

    const form = new FormData();
    form.append('file', new Blob(['email,custom.constructor,custom.valueOf\ncsv@example.com,x,y\n']), 'c.csv');
    const csv = await request('POST', '/client/contacts/bulk/csv', { key: client.api_key, rawBody: form });
    expect(csv.status).toBe(200);
    expect(csv.body.data.results[0]).toMatchObject({ status: 'created' });
    const read = await request('GET', '/client/contacts/csv@example.com', { key: client.api_key });
    expect(read.body.data.custom_field_values).toMatchObject({ constructor: 'x', valueOf: 'y' });
  });
});

describe('CSV form values that are Object.prototype member names', () => {
  it('answers 422 for delimiter=toString and reads is_subscribed=toString as a bad value, not a 500', async () => {
    const client = await createTestClient();
    const form = new FormData();
    form.append('file', new Blob(['email\nx@example.com\n']), 'c.csv');
    form.append('delimiter', 'toString');
    const res = await request('POST', '/client/contacts/bulk/csv', { key: client.api_key, rawBody: form });
    expectEnvelopeError(res, 422, { condition: 'format', key: 'delimiter' });

    const rows = new FormData();
    rows.append('file', new Blob(['email,is_subscribed\ny@example.com,toString\n']), 'c.csv');
    rows.append('__proto__', 'x');
    const read = await request('POST', '/client/contacts/bulk/csv', { key: client.api_key, rawBody: rows });
    expect(read.status).toBe(200);
    expect(read.body.data.results[0]).toMatchObject({ status: 'failed' });
    expect(read.body.data.results[0].errors[0].key).toMatch(/is_subscribed$/);
  });
});

describe('a JSON body that is not an object', () => {
  const bodies = ['null', '"text"', '42', '[]', 'true'];
  it.each(bodies)('answers 400 malformed for %s on PATCH /client/settings and writes no settings row', async (raw) => {
    const client = await createTestClient();
    const before = await clientItems(client.id);
    const res = await request('PATCH', '/client/settings', {
      key: client.api_key,
      rawBody: raw,
      headers: { 'content-type': 'application/json' },
    });
    expectEnvelopeError(res, 400, { condition: 'malformed', key: 'body' });
    expect(await clientItems(client.id)).toEqual(before);
  });

  it.each([
    ['POST', '/client/email-templates/list'],
    ['PATCH', '/client/email-templates/1000'],
    ['POST', '/client/email-templates/1/render-preview'],
    ['PATCH', '/client/workflows/1/customization'],
    ['POST', '/client/contacts'],
    ['POST', '/client/api-keys/rotate'],
  ])('answers 400 malformed for null on %s %s', async (method, path) => {
    const client = await createTestClient();
    const res = await request(method, path, {
      key: client.api_key,
      rawBody: 'null',
      headers: { 'content-type': 'application/json' },
    });
    expectEnvelopeError(res, 400, { condition: 'malformed', key: 'body' });
  });
});

describe('over-long values that would become DynamoDB keys', () => {
  const longEmail = `${'a'.repeat(5000)}@example.com`;

  // The path's bound is stated in the document (MAX_PATH_ID_LENGTH): past it the answer says so rather than 404.
  it('answers 422 max for GET /client/contacts/<5 000-character e-mail>', async () => {
    const client = await createTestClient();
    const res = await request('GET', `/client/contacts/${encodeURIComponent(longEmail)}`, { key: client.api_key });
    expectEnvelopeError(res, 422, { condition: 'max', key: 'id' });
  });

  it('answers 422 max for its subscription PATCH, and 404 for an id of 40 digits', async () => {
    const client = await createTestClient();
    const patch = await request('PATCH', `/client/contacts/${encodeURIComponent(longEmail)}/subscription`, {
      key: client.api_key,
      body: { is_subscribed: false },
    });
    expectEnvelopeError(patch, 422, { condition: 'max', key: 'id' });
    const digits = await request('GET', `/client/contacts/${'9'.repeat(40)}`, { key: client.api_key });
    expectEnvelopeError(digits, 404, { condition: 'not_found', key: 'id' });
  });

  it('answers 422 max for an over-long e-mail or client_contact_id on create', async () => {
    const client = await createTestClient();
    const res = await request('POST', '/client/contacts', {
      key: client.api_key,
      body: { email: longEmail, client_contact_id: '€'.repeat(300) },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { key: string }) => e.key).sort()).toEqual(['client_contact_id', 'email']);
  });
});

describe('deeply nested free-form objects', () => {
  const nested = (depth: number): Record<string, unknown> => {
    let value: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < depth; i += 1) value = { a: value };
    return value;
  };

  it('answers 422 max naming the key for render-preview vars nested 6 000 levels', async () => {
    const client = await createTestClient();
    // Written as text: JSON.stringify itself overflows the stack at this depth.
    const deep = `${'{"a":'.repeat(6000)}1${'}'.repeat(6000)}`;
    const res = await request('POST', '/client/email-templates/1/render-preview', {
      key: client.api_key,
      rawBody: `{"vars":${deep}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatchObject({ condition: 'max' });
    expect(res.body.errors[0].key).toMatch(/^vars\.a\.a\.a/);
  });

  it('still renders vars nested within the bound', async () => {
    const client = await createTestClient();
    const res = await request('POST', '/client/email-templates/1/render-preview', {
      key: client.api_key,
      body: { vars: { deep: nested(6) } },
    });
    expect(res.status).toBe(200);
  });

  it('answers 422 for a __proto__ key and for vars over 32 KB', async () => {
    const client = await createTestClient();
    const proto = await request('POST', '/client/email-templates/1/render-preview', {
      key: client.api_key,
      rawBody: '{"vars": {"x": {"__proto__": {"polluted": true}}}}',
      headers: { 'content-type': 'application/json' },
    });
    expectEnvelopeError(proto, 422, { condition: 'format', key: 'vars.x.__proto__' });
    const big = await request('POST', '/client/email-templates/1/render-preview', {
      key: client.api_key,
      body: { vars: { blob: 'x'.repeat(40_000) } },
    });
    expectEnvelopeError(big, 422, { condition: 'max', key: 'vars' });
  });
});

describe('template content the store cannot hold', () => {
  const template = (html: string, text = '') => ({ name: 'Big', subject: 'Hello', html_body: html, text_body: text });

  it('answers 422 max on html_body for 450 000 characters and writes nothing', async () => {
    const client = await createTestClient();
    const before = await clientItems(client.id);
    const res = await request('POST', '/client/email-templates', {
      key: client.api_key,
      body: template('x'.repeat(450_000)),
    });
    expectEnvelopeError(res, 422, { condition: 'max', key: 'html_body' });
    expect(await clientItems(client.id)).toEqual(before);
  });

  it('counts UTF-8 bytes, not characters (100 000 × "€" is 300 000 bytes)', async () => {
    const client = await createTestClient();
    const res = await request('POST', '/client/email-templates', {
      key: client.api_key,
      body: template('€'.repeat(100_000)),
    });
    expectEnvelopeError(res, 422, { condition: 'max', key: 'html_body' });
  });

  it('stores the largest html and text bodies allowed together, and refuses a PATCH past them', async () => {
    const client = await createTestClient();
    const res = await request('POST', '/client/email-templates', {
      key: client.api_key,
      body: template('<p>' + 'x'.repeat(255_990) + '</p>', 'y'.repeat(100_000)),
    });
    expect(res.status).toBe(201);
    const patch = await request('PATCH', `/client/email-templates/${res.body.data.id}`, {
      key: client.api_key,
      body: { text_body: 'y'.repeat(100_001) },
    });
    expectEnvelopeError(patch, 422, { condition: 'max', key: 'text_body' });
  });
});

describe('concurrent key rotation', () => {
  it('lets exactly one of 10 simultaneous rotations win; the others get 409 and the winning key works', async () => {
    const client = await createTestClient();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => request('POST', '/client/api-keys/rotate', { key: client.api_key })),
    );
    const winners = answers.filter((a) => a.status === 200);
    const losers = answers.filter((a) => a.status !== 200);
    expect(winners).toHaveLength(1);
    for (const loser of losers) {
      // A loser either saw the rotation commit (409) or arrived after the old key was refused (401).
      expect([401, 409]).toContain(loser.status);
      expect(loser.body).toMatchObject({ success: false, data: {} });
    }
    expect(losers.some((l) => l.status === 409)).toBe(true);
    const newKey = winners[0]!.body.data.key as string;
    expect((await request('GET', '/client/settings', { key: newKey })).status).not.toBe(401);
    // The rotated-away key stops at once on the container that rotated it.
    expect((await request('GET', '/client/settings', { key: client.api_key })).status).toBe(401);
  });
});

describe('soft-deleted templates', () => {
  it('are a 404 for GET, PATCH and absent from the list, unless include_deleted=true', async () => {
    const client = await createTestClient();
    const made = await request('POST', '/client/email-templates', {
      key: client.api_key,
      body: { name: 'Gone', subject: 'Bye', html_body: '<p>bye</p>' },
    });
    const id = made.body.data.id as number;
    expect((await request('DELETE', `/client/email-templates/${id}`, { key: client.api_key })).status).toBe(200);

    expectEnvelopeError(await request('GET', `/client/email-templates/${id}`, { key: client.api_key }), 404, {
      condition: 'not_found',
    });
    expectEnvelopeError(
      await request('PATCH', `/client/email-templates/${id}`, { key: client.api_key, body: { name: 'Back' } }),
      404,
      { condition: 'not_found' },
    );
    const list = await request('POST', '/client/email-templates/list', { key: client.api_key, body: { type: 2 } });
    expect(list.body.data.templates).toEqual([]);

    const shown = await request('GET', `/client/email-templates/${id}?include_deleted=true`, { key: client.api_key });
    expect(shown.status).toBe(200);
    expect(shown.body.data.deleted_at.valid).toBe(true);
    const listed = await request('POST', '/client/email-templates/list', {
      key: client.api_key,
      body: { type: 2, include_deleted: true },
    });
    expect(listed.body.data.templates.map((t: { id: number }) => t.id)).toEqual([id]);
  });
});
