import { describe, expect, it } from 'vitest';
import { request } from './support/api.js';
import { createTestClient } from './support/clients.js';

/** POST /client/contacts/bulk/csv over HTTP: multipart/form-data built by fetch, parsed by busboy + csv-parse. */
function upload(key: string, file: string | Uint8Array | null, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file !== null) form.append('file', new Blob([file], { type: 'text/csv' }), 'contacts.csv');
  return request('POST', '/client/contacts/bulk/csv', { key, rawBody: form });
}
const getContact = (key: string, email: string) =>
  request('GET', `/client/contacts/${encodeURIComponent(email)}`, { key });
const statuses = (res: { body: { data: { results: { status: string }[] } } }) =>
  res.body.data.results.map((r) => r.status);

describe('POST /client/contacts/bulk/csv', () => {
  it('imports a file with a header: BOM, CRLF, quoted commas and line breaks, alias time zones, an unknown column', async () => {
    // Prepare
    const { api_key: key } = await createTestClient();
    const csv =
      '\ufeffEmail,First_Name,Last_Name,Company,timezone,custom.plan,Favourite colour\r\n' +
      'ann@example.com,Ann,"Lee, Jr.","Acme\r\nEurope",PST,pro,blue\r\n' +
      '"bob@example.com","Bob ""Bobby""",Smith,,,basic,green\r\n';

    // Act
    const res = await upload(key, csv, { default_timezone: 'SGT' });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ created: 2, updated: 0, unchanged: 0, failed: 0 });
    expect(res.body.data.results).toEqual([
      { index: 1, email: 'ann@example.com', status: 'created', contact_id: expect.any(Number), errors: [] },
      { index: 2, email: 'bob@example.com', status: 'created', contact_id: expect.any(Number), errors: [] },
    ]);
    expect(res.body.meta).toMatchObject({
      ignored_columns: ['Favourite colour'],
      empty_rows: 0,
      dynamodb: { requests: expect.any(Number) },
    });
    expect((await getContact(key, 'ann@example.com')).body.data).toMatchObject({
      first_name: 'Ann',
      last_name: 'Lee, Jr.',
      company: 'Acme\r\nEurope',
      timezone: 'America/Los_Angeles',
      source: 2,
      custom_field_values: { plan: 'pro' },
    });
    expect((await getContact(key, 'bob@example.com')).body.data).toMatchObject({
      first_name: 'Bob "Bobby"',
      timezone: 'Asia/Singapore',
      source: 2,
    });
  });

  it.each([
    [
      'CRLF on the header, LF after',
      'email,first_name\r\nmix1@example.com,One\nmix2@example.com,Two\r\nmix3@example.com,"Three\nLines"\n',
    ],
    [
      'LF on the header, CRLF after',
      'email,first_name\nmix1@example.com,One\r\nmix2@example.com,Two\nmix3@example.com,"Three\nLines"\r\n',
    ],
    [
      'a lone CR among them',
      'email,first_name\rmix1@example.com,One\r\nmix2@example.com,Two\nmix3@example.com,"Three\nLines"',
    ],
  ])('accounts for every line of a file with mixed line endings (%s)', async (_what, csv) => {
    // Prepare
    const { api_key: key } = await createTestClient();

    // Act
    const res = await upload(key, csv);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ created: 3, failed: 0 });
    expect(res.body.data.results.map((r: { index: number; email: string }) => [r.index, r.email])).toEqual([
      [1, 'mix1@example.com'],
      [2, 'mix2@example.com'],
      [3, 'mix3@example.com'],
    ]);
    expect((await getContact(key, 'mix1@example.com')).body.data.first_name).toBe('One');
    expect((await getContact(key, 'mix2@example.com')).body.data.first_name).toBe('Two');
    expect((await getContact(key, 'mix3@example.com')).body.data.first_name).toBe('Three\nLines');
  });

  it('counts a blank CRLF line between LF lines as one empty row, not two', async () => {
    const { api_key: key } = await createTestClient();
    const res = await upload(key, 'email\nblank1@example.com\r\n\r\nblank2@example.com\n');
    expect(res.body.data.results.map((r: { index: number }) => r.index)).toEqual([1, 3]);
    expect(res.body.meta.empty_rows).toBe(1);
  });

  it('reads a file without a header in the documented column order', async () => {
    const { api_key: key } = await createTestClient();
    const res = await upload(key, 'cy@example.com,Cy,Young,Initech,555-0100,JST,crm-1,ext-1,webinar\n', {
      has_header: 'false',
    });
    expect(statuses(res)).toEqual(['created']);
    expect((await getContact(key, 'cy@example.com')).body.data).toMatchObject({
      first_name: 'Cy',
      last_name: 'Young',
      company: 'Initech',
      phone: '555-0100',
      timezone: 'Asia/Tokyo',
      client_contact_id: 'crm-1',
      external_id: 'ext-1',
      signup_source: 'webinar',
    });
  });

  it.each([
    ['semicolons', ';', 'email;first_name\nsemi@example.com;"Semi; Colon"\n', 'Semi; Colon'],
    ['tabs', '\t', 'email\tfirst_name\ntab@example.com\tTab Person\n', 'Tab Person'],
    ['tabs by name', '\\t', 'email\tfirst_name\ntab2@example.com\tTab Named\n', 'Tab Named'],
  ])('splits on %s', async (_what, delimiter, csv, firstName) => {
    const { api_key: key } = await createTestClient();
    const res = await upload(key, csv, { delimiter });
    expect(statuses(res)).toEqual(['created']);
    expect((await getContact(key, res.body.data.results[0].email)).body.data.first_name).toBe(firstName);
  });

  it('fails only the broken rows, numbered as data rows of the file', async () => {
    const { api_key: key } = await createTestClient();
    const csv = [
      'email,first_name,timezone',
      'good1@example.com,One,UTC',
      'not-an-email,Two,UTC',
      '',
      'good2@example.com,Three,Nowhere/Special',
      'good3@example.com,Four,EST,surplus',
      'good4@example.com,Five,CET',
    ].join('\n');

    const res = await upload(key, csv);

    expect(res.body.data).toMatchObject({ created: 2, failed: 3 });
    expect(res.body.meta.empty_rows).toBe(1);
    expect(res.body.data.results.map((r: { index: number; status: string }) => [r.index, r.status])).toEqual([
      [1, 'created'],
      [2, 'failed'],
      [4, 'failed'],
      [5, 'failed'],
      [6, 'created'],
    ]);
    expect(res.body.data.results[1].errors).toEqual([
      { condition: 'format', key: 'rows.2.email', error: 'Must be a valid e-mail address' },
    ]);
    expect(res.body.data.results[2].errors).toEqual([
      { condition: 'format', key: 'rows.4.timezone', error: 'Must be an IANA time zone name such as Europe/Paris' },
    ]);
    expect(res.body.data.results[3].errors[0]).toMatchObject({ condition: 'format', key: 'rows.5' });
    expect((await getContact(key, 'good3@example.com')).status).toBe(404);
  });

  it('updates existing contacts, keeping or clearing values as overwrite_blank_fields says', async () => {
    const { api_key: key } = await createTestClient();
    await request('POST', '/client/contacts', {
      key,
      body: { email: 'dee@example.com', first_name: 'Dee', company: 'Old Co', phone: '1' },
    });

    const keep = await upload(key, 'email,company,phone\ndee@example.com,New Co,\n');
    expect(statuses(keep)).toEqual(['updated']);
    expect((await getContact(key, 'dee@example.com')).body.data).toMatchObject({
      company: 'New Co',
      phone: '1',
      source: 1,
    });

    const clear = await upload(key, 'email,company,phone\ndee@example.com,New Co,\n', {
      overwrite_blank_fields: 'true',
    });
    expect(statuses(clear)).toEqual(['updated']);
    expect((await getContact(key, 'dee@example.com')).body.data).toMatchObject({
      first_name: 'Dee',
      company: 'New Co',
      phone: null,
    });
  });

  it('accepts 1000 rows and refuses 1001 with 413, writing nothing', async () => {
    const { api_key: key } = await createTestClient();
    const file = (n: number, tag: string) =>
      `email,first_name\n${Array.from({ length: n }, (_, i) => `${tag}${i}@example.com,N${i}`).join('\n')}\n`;

    const refused = await upload(key, file(1001, 'over'));
    expect(refused.status).toBe(413);
    expect(refused.body.errors).toEqual([
      { condition: 'max', key: 'file', error: 'At most 1000 rows per file; split the file' },
    ]);
    expect((await getContact(key, 'over0@example.com')).status).toBe(404);

    const accepted = await upload(key, file(1000, 'ok'));
    expect(accepted.body.data).toMatchObject({ created: 1000, failed: 0 });
    expect(accepted.body.meta.dynamodb.requests).toBeLessThanOrEqual(60);
    expect(accepted.body.meta.dynamodb.waves).toBeLessThanOrEqual(6);
  });

  it("never touches another client's contacts", async () => {
    const a = await createTestClient();
    const b = await createTestClient();
    const mine = await request('POST', '/client/contacts', {
      key: a.api_key,
      body: { email: 'both@example.com', first_name: 'A' },
    });
    const res = await upload(b.api_key, 'email,first_name\nboth@example.com,B\n');
    expect(res.body.data.results[0]).toMatchObject({ status: 'created' });
    expect(res.body.data.results[0].contact_id).not.toBe(mine.body.data.id);
    expect((await getContact(a.api_key, 'both@example.com')).body.data.first_name).toBe('A');
  });

  it.each([
    [
      'a file that is not UTF-8',
      Buffer.from('email\ncaf\xe9@example.com\n', 'latin1'),
      {},
      422,
      { condition: 'format', key: 'file' },
    ],
    [
      'a binary file',
      Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x08]),
      {},
      422,
      { condition: 'format', key: 'file' },
    ],
    ['no file field', null, { delimiter: ',' }, 422, { condition: 'required', key: 'file' }],
    ['a header without email', 'name\nx\n', {}, 422, { condition: 'required', key: 'file' }],
    [
      'an unknown default_timezone',
      'email\na@b.co\n',
      { default_timezone: 'Atlantis/Capital' },
      422,
      { condition: 'format', key: 'default_timezone' },
    ],
    [
      'a two-character delimiter',
      'email\na@b.co\n',
      { delimiter: ';;' },
      422,
      { condition: 'format', key: 'delimiter' },
    ],
  ])('refuses %s', async (_what, file, fields, status, item) => {
    const { api_key: key } = await createTestClient();
    const res = await upload(key, file as string | Uint8Array | null, fields as Record<string, string>);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ success: false, data: {} });
    expect(res.body.errors).toEqual([expect.objectContaining(item)]);
  });

  it('answers 415 when the body is not multipart/form-data', async () => {
    const { api_key: key } = await createTestClient();
    const res = await request('POST', '/client/contacts/bulk/csv', {
      key,
      rawBody: 'email\na@b.co\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(res.status).toBe(415);
    expect(res.body.errors).toEqual([
      {
        condition: 'unsupported_media_type',
        key: 'content-type',
        error: 'Send the CSV as multipart/form-data with the file in a "file" field',
      },
    ]);
  });
});
