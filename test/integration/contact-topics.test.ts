import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, request } from './support/api.js';
import { createTestClient } from './support/clients.js';

const address = () => `topics-${randomUUID().slice(0, 8)}@example.com`;

/** Topics over HTTP: a contact's topic_subscriptions and PATCH …/subscription with topic_id. */
describe("a contact's topic subscriptions", () => {
  it('shows one entry per topic (the default until the contact chooses) and changes one topic only with topic_id', async () => {
    // Prepare: two topics, one opt-in
    const { api_key: key } = await createTestClient();
    const news = (await call('POST', '/client/topics', { key, body: { name: 'News' } })).body.data;
    const beta = (await call('POST', '/client/topics', { key, body: { name: 'Beta', default_subscribed: false } })).body
      .data;
    const email = address();
    const created = await call('POST', '/client/contacts', { key, body: { email } });
    const id = created.body.data.id;

    // Act
    const left = await call('PATCH', `/client/contacts/${id}/subscription`, {
      key,
      body: { is_subscribed: false, topic_id: news.id },
    });
    const joined = await call('PATCH', `/client/contacts/${encodeURIComponent(email)}/subscription`, {
      key,
      body: { is_subscribed: true, topic_id: beta.id },
    });
    const listed = await call('GET', `/client/contacts?email_prefix=${encodeURIComponent(email)}`, { key });
    const leftAll = await call('PATCH', `/client/contacts/${id}/subscription`, {
      key,
      body: { is_subscribed: false, unsubscribe_reason: 'asked' },
    });

    // Assess
    expect(created.body.data.topic_subscriptions).toEqual([
      { topic_id: news.id, is_subscribed: true },
      { topic_id: beta.id, is_subscribed: false },
    ]);
    expect(left.status).toBe(200);
    expect(left.body.message).toBe(`Contact unsubscribed from topic ${news.id}`);
    expect(left.body.data).toMatchObject({
      is_subscribed: true,
      unsubscribed_at: null,
      topic_subscriptions: [
        { topic_id: news.id, is_subscribed: false },
        { topic_id: beta.id, is_subscribed: false },
      ],
    });
    expect(joined.body.data.topic_subscriptions).toEqual([
      { topic_id: news.id, is_subscribed: false },
      { topic_id: beta.id, is_subscribed: true },
    ]);
    expect(listed.body.data.contacts[0].topic_subscriptions).toEqual(joined.body.data.topic_subscriptions);
    // Leaving all marketing mail keeps the topic choices; the contact gets no marketing mail whatever they say.
    expect(leftAll.body.data).toMatchObject({
      is_subscribed: false,
      unsubscribe_reason: 'asked',
      topic_subscriptions: joined.body.data.topic_subscriptions,
    });
  });

  it("refuses another client's topic or a missing one with a 404 on topic_id, changing nothing", async () => {
    const a = await createTestClient();
    const b = await createTestClient();
    const foreign = (await call('POST', '/client/topics', { key: b.api_key, body: { name: 'B only' } })).body.data;
    const email = address();
    await call('POST', '/client/contacts', { key: a.api_key, body: { email } });
    const before = await call('GET', `/client/contacts/${encodeURIComponent(email)}`, { key: a.api_key });

    const refused = await call('PATCH', `/client/contacts/${encodeURIComponent(email)}/subscription`, {
      key: a.api_key,
      body: { is_subscribed: false, topic_id: foreign.id },
    });
    const bad = await call('PATCH', `/client/contacts/${encodeURIComponent(email)}/subscription`, {
      key: a.api_key,
      body: { is_subscribed: false, topic_id: 'x' },
    });
    const after = await call('GET', `/client/contacts/${encodeURIComponent(email)}`, { key: a.api_key });

    expect(refused.status).toBe(404);
    expect(refused.body.errors).toEqual([{ condition: 'not_found', key: 'topic_id', error: 'Topic not found' }]);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ condition: 'type', key: 'topic_id', error: 'Must be a topic id (integer)' }]);
    expect(after.body.data).toEqual(before.body.data);
  });

  it('bulk and CSV imports leave topic choices as they are', async () => {
    const { api_key: key } = await createTestClient();
    const news = (await call('POST', '/client/topics', { key, body: { name: 'News' } })).body.data;
    const email = address();
    await call('POST', '/client/contacts', { key, body: { email } });
    await call('PATCH', `/client/contacts/${encodeURIComponent(email)}/subscription`, {
      key,
      body: { is_subscribed: false, topic_id: news.id },
    });

    const bulk = await request('POST', '/client/contacts/bulk', {
      key,
      body: { contacts: [{ email, first_name: 'Ada', is_subscribed: true }] },
    });
    const form = new FormData();
    form.append('file', new Blob([`email,last_name\n${email},Lovelace\n`], { type: 'text/csv' }), 'contacts.csv');
    const csv = await request('POST', '/client/contacts/bulk/csv', { key, rawBody: form });
    const after = await call('GET', `/client/contacts/${encodeURIComponent(email)}`, { key });

    expect([bulk.status, csv.status]).toEqual([200, 200]);
    expect(after.body.data).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      topic_subscriptions: [{ topic_id: news.id, is_subscribed: false }],
    });
  });
});
