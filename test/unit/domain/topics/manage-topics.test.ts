import { describe, expect, it } from 'vitest';
import { memoryStores } from '../../../../shared/adapters/memory/memory-stores.js';
import { createTopic, deleteTopic, listTopics, updateTopic } from '../../../../shared/domain/topics/manage-topics.js';
import { AppError } from '../../../../shared/errors.js';

const CLIENT = 3;

describe('topics (memory ports)', () => {
  it('keeps the limit of 20 under concurrent creates: exactly one of five racing for the last place wins', async () => {
    // Prepare
    const stores = memoryStores();
    for (let i = 1; i <= 19; i += 1)
      await createTopic(stores, CLIENT, { name: `T${i}`, description: '', default_subscribed: true });

    // Act
    const outcomes = await Promise.allSettled(
      [1, 2, 3, 4, 5].map((n) =>
        createTopic(stores, CLIENT, { name: `Last ${n}`, description: '', default_subscribed: true }),
      ),
    );

    // Assess
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.flatMap((o) =>
      o.status === 'rejected' ? [(o.reason as AppError).items[0]?.condition] : [],
    );
    expect(refused).toEqual(['max', 'max', 'max', 'max']);
    expect(await listTopics(stores, CLIENT)).toHaveLength(20);
  });

  it('gives one of two concurrent creates with the same name the topic and the other 409 unique', async () => {
    const stores = memoryStores();

    const outcomes = await Promise.allSettled([
      createTopic(stores, CLIENT, { name: 'News', description: '', default_subscribed: true }),
      createTopic(stores, CLIENT, { name: 'news', description: '', default_subscribed: true }),
    ]);

    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((await listTopics(stores, CLIENT)).map((t) => t.id)).toEqual([1]);
  });

  it('writes nothing for a PATCH that changes nothing, and refuses to delete a topic a customization names', async () => {
    const stores = memoryStores();
    const topic = await createTopic(stores, CLIENT, { name: 'News', description: '', default_subscribed: true });
    await stores.customizations.save({
      clientId: CLIENT,
      workflowId: 6,
      overrides: { topic_id: topic.id },
      expectedVersion: undefined,
      at: topic.created_at,
      audit: {
        id: 'a1',
        workflow_id: 6,
        key_id: 1,
        auth_method: 'api_key',
        request_id: null,
        at: topic.created_at,
        before: {} as never,
        after: {} as never,
      },
    });

    const same = await updateTopic(stores, CLIENT, topic.id, { name: 'News' });
    const refused = await deleteTopic(stores, CLIENT, topic.id).catch((e: AppError) => e);

    expect(same).toEqual(topic);
    expect((await stores.topics.load(CLIENT)).version).toBe(1);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBe(409);
    expect((refused as AppError).items).toEqual([
      {
        condition: 'state',
        key: 'id',
        error:
          'The topic is in use by workflow 6 (cancellation_winback): set their topic_id to null or another topic first',
      },
    ]);
    expect(await listTopics(stores, CLIENT)).toEqual([topic]);
  });
});
