import { describe, expect, it } from 'vitest';
import { call } from './support/api.js';
import { createTestClient } from './support/clients.js';

/** Every page of GET /client/contacts with these filters, following next_cursor. */
async function allPages(key: string, params: Record<string, string>) {
  const pages: { emails: string[]; cursor: string | null }[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ ...params, ...(cursor ? { cursor } : {}) });
    const res = await call('GET', `/client/contacts?${query}`, { key });
    expect(res.status, JSON.stringify(res.body.errors)).toBe(200);
    cursor = res.body.data.next_cursor;
    pages.push({ emails: res.body.data.contacts.map((c: { email: string }) => c.email), cursor });
  } while (cursor && pages.length < 50);
  return pages;
}

async function clientWithContacts(prefix: string, count: number) {
  const client = await createTestClient();
  const contacts = Array.from({ length: count }, (_, i) => ({
    email: `${prefix}${String(i).padStart(2, '0')}@example.com`,
    first_name: `N${i}`,
    ...(i % 3 === 0 ? { is_subscribed: false } : {}),
  }));
  const res = await call('POST', '/client/contacts/bulk', { key: client.api_key, body: { contacts } });
  expect(res.body.data.created).toBe(count);
  return { client, emails: contacts.map((c) => c.email) };
}

describe('GET /client/contacts (extra)', () => {
  it('lists every contact of the client once, by ascending id, one page of `limit` at a time, and no other client’s', async () => {
    // Prepare
    const { client, emails } = await clientWithContacts('ann', 23);
    await clientWithContacts('other', 3);

    // Act
    const pages = await allPages(client.api_key, { limit: '5' });

    // Assess
    expect(pages.flatMap((p) => p.emails)).toEqual(emails);
    expect(pages.map((p) => p.emails.length)).toEqual([5, 5, 5, 5, 3]);
    expect(pages.at(-1)!.cursor).toBeNull();
  });

  it('shows each contact as GET /client/contacts/{id} does', async () => {
    // Prepare
    const { client } = await clientWithContacts('view', 2);

    // Act
    const list = await call('GET', '/client/contacts?limit=1', { key: client.api_key });
    const one = await call('GET', `/client/contacts/${list.body.data.contacts[0].id}`, { key: client.api_key });

    // Assess
    expect(list.body.data.contacts).toEqual([one.body.data]);
    expect(list.body.meta).toMatchObject({ limit: 1 });
  });

  it.each([
    ['is_subscribed=false', { is_subscribed: 'false' }, (i: number) => i % 3 === 0],
    ['is_subscribed=true', { is_subscribed: 'true' }, (i: number) => i % 3 !== 0],
    ['email_prefix (case-insensitive)', { email_prefix: 'FILT1' }, (i: number) => i >= 10 && i < 20],
    ['source=api (the bulk JSON rows came through the API)', { source: 'api' }, () => true],
    ['source=2 (import)', { source: '2' }, () => false],
  ])('filters by %s across pages', async (_case, params, expected) => {
    // Prepare
    const { client, emails } = await clientWithContacts('filt', 21);

    // Act
    const pages = await allPages(client.api_key, { limit: '4', ...params });

    // Assess
    expect(pages.flatMap((p) => p.emails)).toEqual(emails.filter((_, i) => expected(i)));
  });

  it('filters by updated_since', async () => {
    // Prepare
    const { client, emails } = await clientWithContacts('upd', 4);
    const since = new Date().toISOString();
    await call('PATCH', `/client/contacts/${encodeURIComponent(emails[2]!)}/subscription`, {
      key: client.api_key,
      body: { is_subscribed: false },
    });

    // Act
    const pages = await allPages(client.api_key, { updated_since: since });

    // Assess
    expect(pages.flatMap((p) => p.emails)).toEqual([emails[2]]);
  });

  it('refuses a cursor that was altered, belongs to another client or to other filters (422 on cursor)', async () => {
    // Prepare
    const { client } = await clientWithContacts('cur', 4);
    const other = await createTestClient();
    const first = await call('GET', '/client/contacts?limit=2', { key: client.api_key });
    const cursor: string = first.body.data.next_cursor;
    const [payload, mac] = cursor.split('.') as [string, string];
    const moved = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), a: 0 }),
    ).toString('base64url');

    // Act
    const answers = await Promise.all([
      call('GET', `/client/contacts?limit=2&cursor=${moved}.${mac}`, { key: client.api_key }),
      call('GET', `/client/contacts?limit=2&cursor=${cursor}`, { key: other.api_key }),
      call('GET', `/client/contacts?limit=2&is_subscribed=true&cursor=${cursor}`, { key: client.api_key }),
      call('GET', '/client/contacts?cursor=nonsense', { key: client.api_key }),
    ]);

    // Assess
    for (const res of answers) {
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ key: 'cursor', condition: 'format' })]);
    }
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['is_subscribed=maybe', 'is_subscribed'],
    ['source=fax', 'source'],
    ['updated_since=yesterday', 'updated_since'],
  ])('answers 422 for %s', async (query, key) => {
    const client = await createTestClient();
    const res = await call('GET', `/client/contacts?${query}`, { key: client.api_key });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ key })]);
  });
});
