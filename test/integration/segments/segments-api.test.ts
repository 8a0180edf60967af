import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { keys } from '../../../shared/adapters/dynamo/keys.js';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { documentClient } from '../support/partition.js';

/**
 * The segments API over HTTP against the local runtime (DynamoDB Local): CRUD with its checks, the plan's limit,
 * another client's ids, the preview, and a backfill of the contacts already stored to `ready` with the exact count
 * (the change stream's projection keeps the count; the segments queue runs the backfill pages).
 */
const proDefinition = {
  match: 'all',
  groups: [{ match: 'all', conditions: [{ on: 'custom_field', name: 'plan', op: 'eq', value: 'pro' }] }],
};
const tagDefinition = (tag: string) => ({
  match: 'all',
  groups: [{ match: 'all', conditions: [{ on: 'tag', op: 'has', tag }] }],
});

describe('segments API', () => {
  it('creates, reads, renames and deletes a segment; a stale version is 409; another client gets 404 on every verb', async () => {
    // Prepare
    const { api_key: key } = await createTestClient();
    const other = await createTestClient();

    // Act
    const created = await call('POST', '/client/segments', {
      key,
      body: { name: ' VIPs ', description: 'Tagged vip', definition: tagDefinition('vip') },
    });
    const id = created.body.data?.id as number;
    const got = await call('GET', `/client/segments/${id}`, { key });
    const stale = await call('PATCH', `/client/segments/${id}`, { key, body: { version: 2, name: 'x' } });
    const renamed = await call('PATCH', `/client/segments/${id}`, { key, body: { version: 1, name: 'Top' } });
    const redefined = await call('PATCH', `/client/segments/${id}`, {
      key,
      body: { version: 1, definition: tagDefinition('gold') },
    });
    const list = await call('GET', '/client/segments', { key });
    const foreign = await Promise.all([
      call('GET', `/client/segments/${id}`, { key: other.api_key }),
      call('PATCH', `/client/segments/${id}`, { key: other.api_key, body: { version: 2, name: 'Mine' } }),
      call('DELETE', `/client/segments/${id}`, { key: other.api_key }),
      call('GET', `/client/segments/${id}/contacts`, { key: other.api_key }),
    ]);
    const deleted = await call('DELETE', `/client/segments/${id}`, { key });
    const gone = await call('GET', `/client/segments/${id}`, { key });

    // Assess
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'VIPs',
      description: 'Tagged vip',
      version: 1,
      status: 'building',
    });
    expect(got.body.data).toMatchObject({ id, definition: tagDefinition('vip'), backfill: { version: 1, shards: 8 } });
    expect(stale.status).toBe(409);
    expect(stale.body.errors).toEqual([expect.objectContaining({ condition: 'state', key: 'version' })]);
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Top', version: 1 });
    expect(redefined.body.data).toMatchObject({ version: 2, status: 'building', definition: tagDefinition('gold') });
    expect(list.body.data.segments).toEqual([expect.objectContaining({ id, name: 'Top', version: 2 })]);
    expect(list.body.meta).toMatchObject({ total: 1, max_segments: 3 });
    expect(foreign.map((r) => r.status)).toEqual([404, 404, 404, 404]);
    expect(deleted.status, deleted.text).toBe(200);
    expect(gone.status).toBe(404);
    expect((await call('GET', '/client/segments', { key })).body.data.segments).toEqual([]);
  });

  it('answers every problem of a body at once, each at its path, and writes nothing', async () => {
    const { api_key: key } = await createTestClient();

    const shape = await call('POST', '/client/segments', {
      key,
      body: {
        name: '',
        definition: {
          match: 'some',
          groups: [
            {
              match: 'all',
              conditions: [
                { on: 'event_count', event: 'purchase', op: 'at_least', count: 0 },
                { on: 'date', field: 'created_at', op: 'within_days', value: 400 },
              ],
            },
          ],
        },
      },
    });
    const reference = await call('POST', '/client/segments', {
      key,
      body: {
        name: 'Topic',
        definition: {
          match: 'all',
          groups: [{ match: 'all', conditions: [{ on: 'topic', topic_id: 77, op: 'subscribed' }] }],
        },
      },
    });

    expect(shape.status, shape.text).toBe(422);
    expect(shape.body.errors.map((e: { key: string }) => e.key).sort()).toEqual([
      'definition.groups.0.conditions.0.count',
      'definition.groups.0.conditions.1.value',
      'definition.match',
      'name',
    ]);
    expect(reference.status, reference.text).toBe(422);
    expect(reference.body.errors).toEqual([
      expect.objectContaining({ condition: 'reference', key: 'definition.groups.0.conditions.0.topic_id' }),
    ]);
    expect((await call('GET', '/client/segments', { key })).body.data.segments).toEqual([]);
  });

  it("refuses a segment over the plan's limit with 409 max", async () => {
    const { api_key: key } = await createTestClient('free');

    const answers = [];
    for (const n of [1, 2, 3, 4])
      answers.push(
        await call('POST', '/client/segments', { key, body: { name: `S${n}`, definition: tagDefinition(`t${n}`) } }),
      );

    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 409]);
    expect(answers[3]!.body.errors).toEqual([expect.objectContaining({ condition: 'max', key: 'segments' })]);
  });

  it('backfills the contacts already stored to ready with the exact count, lists them, and previews exactly', async () => {
    // Prepare: 300 contacts, every third on plan pro (100).
    const { api_key: key, id: clientId } = await createTestClient();
    for (let page = 0; page < 3; page += 1) {
      const contacts = Array.from({ length: 100 }, (_, i) => {
        const n = page * 100 + i;
        return { email: `c${n}@example.com`, custom_fields: { plan: n % 3 === 0 ? 'pro' : 'free' } };
      });
      const bulk = await call('POST', '/client/contacts/bulk', { key, body: { contacts } });
      expect(bulk.status, bulk.text).toBeLessThan(300);
    }

    // Act
    const preview = await call('POST', '/client/segments/preview', { key, body: { definition: proDefinition } });
    const created = await call('POST', '/client/segments', { key, body: { name: 'Pro', definition: proDefinition } });
    const id = created.body.data.id as number;
    const ready = await eventually(
      'the backfill ready and counted',
      async () => {
        const got = await call('GET', `/client/segments/${id}`, { key });
        return got.body.data.status === 'ready' && got.body.data.count === 100 ? got.body.data : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    const ids: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(
        'GET',
        `/client/segments/${id}/contacts?per_page=40${cursor ? `&cursor=${cursor}` : ''}`,
        {
          key,
        },
      );
      expect(page.status, page.text).toBe(200);
      ids.push(...page.body.data.contacts.map((c: { id: number }) => c.id));
      cursor = page.body.data.next_cursor ?? undefined;
    } while (cursor);

    // Assess
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.data).toEqual({ count: 100, sampled: 300, exact: true, share: 100 / 300 });
    expect(ready.backfill).toMatchObject({ version: 1, scanned: 300, done: true, shards_done: 8 });
    expect(ids).toHaveLength(100);
    expect(new Set(ids).size).toBe(100);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);

    // Deleted: its members leave it in the background, so its count (the projection's gauge) goes to 0.
    expect((await call('DELETE', `/client/segments/${id}`, { key })).status).toBe(200);
    await eventually(
      'the deleted segment purged',
      async () => {
        const out = await documentClient().send(
          new GetCommand({
            TableName: inject('tableName'),
            Key: keys.statsSegmentGauge(clientId, id),
            ConsistentRead: true,
          }),
        );
        return Number(out.Item?.['n']) === 0 ? true : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
  });
});
