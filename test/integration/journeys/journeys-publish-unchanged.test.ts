import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';

/** A two-step journey: tag the contact, then exit. */
const journey = (tag: string) => ({
  trigger: { event: 'project_created', reentry: { mode: 'always' } },
  entry: 'tag',
  steps: [
    { id: 'tag', type: 'update_contact', add_tags: [tag], next: 'out' },
    { id: 'out', type: 'exit' },
  ],
  settings: { category: 'marketing', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
});

describe('publishing a draft that is the live version already', () => {
  it('answers the live version unchanged (200) and writes no version, while a changed draft still publishes (201)', async () => {
    // Prepare
    const { api_key: key } = await createTestClient();
    const made = await call('POST', '/client/journeys', { key, body: { name: 'Tagger', definition: journey('a') } });
    expect(made.status).toBe(201);
    const id = made.body.data.id as number;
    const first = await call('POST', `/client/journeys/${id}/publish`, { key, body: { draft_version: 1 } });
    expect(first.status).toBe(201);

    // Act: the same draft again; then the same definition saved as a new draft (keys in another order)
    const again = await call('POST', `/client/journeys/${id}/publish`, { key, body: { draft_version: 1 } });
    const { settings, ...rest } = journey('a');
    const resaved = await call('PUT', `/client/journeys/${id}/draft`, {
      key,
      body: { draft_version: 1, definition: { settings, ...rest } },
    });
    expect(resaved.status).toBe(200);
    const sameSaved = await call('POST', `/client/journeys/${id}/publish`, { key, body: { draft_version: 2 } });
    const afterUnchanged = await call('GET', `/client/journeys/${id}/versions`, { key });
    const changed = await call('PUT', `/client/journeys/${id}/draft`, {
      key,
      body: { draft_version: 2, definition: journey('b') },
    });
    expect(changed.status).toBe(200);
    const second = await call('POST', `/client/journeys/${id}/publish`, { key, body: { draft_version: 3 } });

    // Assess
    for (const unchanged of [again, sameSaved]) {
      expect(unchanged.status, unchanged.text).toBe(200);
      expect(unchanged.body.message).toMatch(/unchanged/i);
      expect(unchanged.body.data).toEqual(first.body.data);
    }
    expect(afterUnchanged.status).toBe(200);
    expect(afterUnchanged.body.data.versions.map((v: { version: number }) => v.version)).toEqual([1]);
    expect(second.status, second.text).toBe(201);
    expect(second.body.data).toMatchObject({ version: 2 });
    const journeyNow = await call('GET', `/client/journeys/${id}`, { key });
    expect(journeyNow.body.data).toMatchObject({ status: 'live', live_version: 2 });
  });

  it('leaves a paused journey paused: resuming is its own call', async () => {
    // Prepare
    const { api_key: key } = await createTestClient();
    const made = await call('POST', '/client/journeys', { key, body: { name: 'Tagger', definition: journey('a') } });
    const id = made.body.data.id as number;
    expect((await call('POST', `/client/journeys/${id}/publish`, { key, body: { draft_version: 1 } })).status).toBe(
      201,
    );
    expect((await call('POST', `/client/journeys/${id}/pause`, { key })).status).toBe(200);

    // Act
    const again = await call('POST', `/client/journeys/${id}/publish`, { key, body: { draft_version: 1 } });

    // Assess
    expect(again.status, again.text).toBe(200);
    expect(again.body.data).toMatchObject({ version: 1 });
    const journeyNow = await call('GET', `/client/journeys/${id}`, { key });
    expect(journeyNow.body.data).toMatchObject({ status: 'paused', live_version: 1 });
  });
});
