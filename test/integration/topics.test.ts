import { describe, expect, it } from 'vitest';
import { call } from './support/api.js';
import { createTestClient } from './support/clients.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Over HTTP: topics CRUD, their limits, isolation, and a workflow's topic_id. */
describe('topics', () => {
  it('creates, lists, reads, updates and deletes a topic', async () => {
    const { api_key: key } = await createTestClient();

    const created = await call('POST', '/client/topics', {
      key,
      body: { name: '  Product news ', description: 'What we ship' },
    });
    const second = await call('POST', '/client/topics', { key, body: { name: 'Tips', default_subscribed: false } });
    const listed = await call('GET', '/client/topics', { key });
    const got = await call('GET', `/client/topics/${created.body.data.id}`, { key });
    const patched = await call('PATCH', `/client/topics/${created.body.data.id}`, {
      key,
      body: { default_subscribed: false, description: '' },
    });
    const deleted = await call('DELETE', `/client/topics/${second.body.data.id}`, { key });
    const after = await call('GET', '/client/topics', { key });
    const third = await call('POST', '/client/topics', { key, body: { name: 'Tips' } });

    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: 1,
      name: 'Product news',
      description: 'What we ship',
      default_subscribed: true,
      contacts_left: 0,
      created_at: expect.stringMatching(RFC3339),
      updated_at: expect.stringMatching(RFC3339),
    });
    expect(second.body.data).toMatchObject({ id: 2, name: 'Tips', description: '', default_subscribed: false });
    expect(listed.body.data.topics.map((t: { id: number }) => t.id)).toEqual([1, 2]);
    expect(listed.body.meta).toMatchObject({ total: 2, max_topics: 20 });
    expect(got.body.data).toEqual(created.body.data);
    expect(patched.body.data).toMatchObject({
      id: 1,
      name: 'Product news',
      description: '',
      default_subscribed: false,
    });
    expect(deleted.body.data).toEqual(second.body.data);
    expect(after.body.data.topics).toEqual([patched.body.data]);
    // An id is never reused: a contact's choice about topic 2 never applies to a new topic.
    expect(third.body.data.id).toBe(3);
  });

  it('refuses a taken name (ignoring case), a 21st topic and bad input, writing nothing', async () => {
    const { api_key: key } = await createTestClient();
    await call('POST', '/client/topics', { key, body: { name: 'News' } });

    const taken = await call('POST', '/client/topics', { key, body: { name: 'NEWS' } });
    const bad = await call('POST', '/client/topics', {
      key,
      body: { name: ' ', description: 'x'.repeat(501), default_subscribed: 'yes' },
    });
    const missing = await call('POST', '/client/topics', { key, body: {} });
    await call('POST', '/client/topics', { key, body: { name: 'Other' } });
    const renamed = await call('PATCH', '/client/topics/2', { key, body: { name: 'news' } });
    for (let i = 3; i <= 20; i += 1) await call('POST', '/client/topics', { key, body: { name: `Topic ${i}` } });
    const tooMany = await call('POST', '/client/topics', { key, body: { name: 'Topic 21' } });
    const listed = await call('GET', '/client/topics', { key });

    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual([
      { condition: 'unique', key: 'name', error: 'Another topic of the client has this name' },
    ]);
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { key: string; condition: string }) => [e.key, e.condition])).toEqual([
      ['name', 'min'],
      ['description', 'max'],
      ['default_subscribed', 'type'],
    ]);
    expect(missing.body.errors).toEqual([{ condition: 'required', key: 'name', error: 'name is required' }]);
    expect(renamed.status).toBe(409);
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.errors).toEqual([{ condition: 'max', key: 'id', error: 'A client has at most 20 topics' }]);
    expect(listed.body.data.topics.map((t: { name: string }) => t.name)).toEqual([
      'News',
      'Other',
      ...Array.from({ length: 18 }, (_, i) => `Topic ${i + 3}`),
    ]);
  });

  it("keeps topics apart: another client's topic is a 404 to read, change, delete or name in a customization", async () => {
    const a = await createTestClient();
    const b = await createTestClient();
    const own = await call('POST', '/client/topics', { key: a.api_key, body: { name: 'A news' } });
    const id = own.body.data.id;

    const answers = [
      await call('GET', `/client/topics/${id}`, { key: b.api_key }),
      await call('PATCH', `/client/topics/${id}`, { key: b.api_key, body: { name: 'mine' } }),
      await call('DELETE', `/client/topics/${id}`, { key: b.api_key }),
      await call('GET', '/client/topics/abc', { key: a.api_key }),
    ];
    const customization = await call('PATCH', '/client/workflows/2/customization', {
      key: b.api_key,
      body: { topic_id: id },
    });
    const listedB = await call('GET', '/client/topics', { key: b.api_key });
    const stillA = await call('GET', `/client/topics/${id}`, { key: a.api_key });

    expect(answers.map((r) => [r.status, r.body.errors[0]?.condition])).toEqual([
      [404, 'not_found'],
      [404, 'not_found'],
      [404, 'not_found'],
      [404, 'not_found'],
    ]);
    expect(customization.status).toBe(404);
    expect(customization.body.errors).toEqual([{ condition: 'not_found', key: 'topic_id', error: 'Topic not found' }]);
    expect(listedB.body.data.topics).toEqual([]);
    expect(stillA.body.data).toEqual(own.body.data);
  });

  it("a marketing workflow's topic_id is a customization; a topic in use cannot be deleted (409 naming the workflows)", async () => {
    const { api_key: key } = await createTestClient();
    const topic = (await call('POST', '/client/topics', { key, body: { name: 'Tips' } })).body.data;

    const set = await call('PATCH', '/client/workflows/2/customization', { key, body: { topic_id: topic.id } });
    await call('PATCH', '/client/workflows/7/customization', { key, body: { topic_id: topic.id } });
    const transactional = await call('PATCH', '/client/workflows/5/customization', {
      key,
      body: { topic_id: topic.id },
    });
    const inUse = await call('DELETE', `/client/topics/${topic.id}`, { key });
    const audit = await call('GET', '/client/workflows/2/customization/audit', { key });
    await call('PATCH', '/client/workflows/2/customization', { key, body: { topic_id: null } });
    await call('PATCH', '/client/workflows/7/customization', { key, body: { topic_id: null } });
    const deleted = await call('DELETE', `/client/topics/${topic.id}`, { key });

    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ topic_id: topic.id, overrides: { topic_id: topic.id } });
    expect(transactional.status).toBe(422);
    expect(transactional.body.errors).toEqual([
      {
        condition: 'read_only',
        key: 'topic_id',
        error: 'A transactional workflow belongs to no topic: it reaches every contact that is not suppressed',
      },
    ]);
    expect(inUse.status).toBe(409);
    expect(inUse.body.errors).toEqual([
      {
        condition: 'state',
        key: 'id',
        error:
          'The topic is in use by workflow 2 (onboarding_tips), 7 (feature_adoption): set their topic_id to null or another topic first',
      },
    ]);
    expect(audit.body.data.entries[0]).toMatchObject({ before: { topic_id: null }, after: { topic_id: topic.id } });
    expect(deleted.status).toBe(200);
  });
});
