import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { createTestClient, type TestClient } from '../support/clients.js';
import { awaitSesMailsTo, sesMailsTo } from '../support/ses-mailbox.js';

/**
 * Journeys triggered by a segment, over the local runtime: a contact PATCHed into "plan = pro" moves in through the
 * change stream and the evaluator, whose transaction writes the segment event; its processing starts the run, which
 * mails once. Leaving starts the leave journey; the re-entry rules hold across moves.
 */
const journeyOn = (segmentId: number, on: 'enter' | 'leave', reentry: string) => ({
  trigger: { segment: { segment_id: segmentId, on }, reentry: { mode: reentry } },
  entry: 'send',
  steps: [{ id: 'send', type: 'send', template_id: 1, send_time: { mode: 0 }, next: null }],
  settings: { category: 'transactional', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
});

/** Creates a journey and asks to publish its first draft: the publish's answer, and the journey's id. */
async function tryPublish(client: TestClient, name: string, definition: unknown) {
  const created = await call('POST', '/client/journeys', { key: client.api_key, body: { name, definition } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const { id, draft_version } = created.body.data;
  const published = await call('POST', `/client/journeys/${id}/publish`, {
    key: client.api_key,
    body: { draft_version },
  });
  return { id: id as number, published };
}

async function publish(client: TestClient, name: string, definition: unknown): Promise<number> {
  const { id, published } = await tryPublish(client, name, definition);
  expect(published.status, JSON.stringify(published.body)).toBe(201);
  return id;
}

/** A segment of the contacts whose custom field `plan` equals `plan`: its id. */
async function planSegment(client: TestClient, name: string, plan: string): Promise<number> {
  const created = await call('POST', '/client/segments', {
    key: client.api_key,
    body: {
      name,
      definition: {
        match: 'all',
        groups: [{ match: 'all', conditions: [{ on: 'custom_field', name: 'plan', op: 'eq', value: plan }] }],
      },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data.id as number;
}

const setPlan = async (client: TestClient, contactId: number, plan: string) =>
  expect(
    (await call('PATCH', `/client/contacts/${contactId}`, { key: client.api_key, body: { custom_fields: { plan } } }))
      .status,
  ).toBe(200);

describe('journeys triggered by a segment', () => {
  it('starts one run per move in (always) and one ever per move out (once); another client’s segment is a 422', async () => {
    // Prepare
    const client = await createTestClient('growth');
    const segmentId = await planSegment(client, 'Pro', 'pro');
    const other = await createTestClient();
    const { published: stranger } = await tryPublish(other, 'Not mine', journeyOn(segmentId, 'enter', 'always'));
    await publish(client, 'Welcome to pro', journeyOn(segmentId, 'enter', 'always'));
    await publish(client, 'Sorry to see you go', journeyOn(segmentId, 'leave', 'once'));
    const email = `seg-${randomUUID()}@example.com`;
    const contact = await call('POST', '/client/contacts', {
      key: client.api_key,
      body: { email, custom_fields: { plan: 'free' } },
    });
    expect(contact.status).toBe(201);
    const contactId = contact.body.data.id as number;

    // Act + Assess: in → one mail; out → the leave journey's; in again → another (always); out again → none (once)
    await setPlan(client, contactId, 'pro');
    await awaitSesMailsTo(email, 1);
    await setPlan(client, contactId, 'free');
    await awaitSesMailsTo(email, 2);
    await setPlan(client, contactId, 'pro');
    await awaitSesMailsTo(email, 3);
    await setPlan(client, contactId, 'free');
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(await sesMailsTo(email)).toHaveLength(3);
    expect(stranger.status).toBe(422);
    expect(JSON.stringify(stranger.body)).toContain('trigger.segment.segment_id');
  });

  it('holds a segment a live or paused journey starts on: 409 naming the journey, deleted once the journey is archived', async () => {
    // Prepare
    const client = await createTestClient('growth');
    const segmentId = await planSegment(client, 'Trial', 'trial');
    const journeyId = await publish(client, 'Trial tips', journeyOn(segmentId, 'enter', 'always'));
    const paused = await call('POST', `/client/journeys/${journeyId}/pause`, { key: client.api_key });
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);

    // Act
    const held = await call('DELETE', `/client/segments/${segmentId}`, { key: client.api_key });
    const archived = await call('POST', `/client/journeys/${journeyId}/archive`, { key: client.api_key });
    const deleted = await call('DELETE', `/client/segments/${segmentId}`, { key: client.api_key });

    // Assess: nothing went with the refusal; after the archive the delete goes through, and a journey can no longer
    // be published on the deleted segment
    expect(held.status).toBe(409);
    expect(held.body.errors).toEqual([
      expect.objectContaining({
        condition: 'state',
        key: 'id',
        error: expect.stringContaining(`Journey ${journeyId}`),
      }),
    ]);
    expect(archived.status, JSON.stringify(archived.body)).toBe(200);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const { published: late } = await tryPublish(client, 'Too late', journeyOn(segmentId, 'enter', 'always'));
    expect(late.status).toBe(422);
  });
});
