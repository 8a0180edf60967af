import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { webhookReceiver } from '../support/webhook-receiver.js';

/** Journey webhooks over HTTP: a run's entry, each step it leaves and its end reach a subscribed receiver, once each. */
const receiver = webhookReceiver();
const { received } = receiver;

const journey = {
  trigger: { event: 'project_created', reentry: { mode: 'always' } },
  entry: 'tag',
  steps: [
    { id: 'tag', type: 'update_contact', add_tags: ['builder'], next: 'out' },
    { id: 'out', type: 'exit' },
  ],
  settings: { category: 'marketing', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
};

describe('journey webhooks', () => {
  it('tells a receiver subscribed to journey.* that a contact entered, left each step and exited', async () => {
    // Prepare
    const { api_key: key } = await createTestClient();
    const path = `/journeys-${randomUUID().slice(0, 8)}`;
    const hook = await call('POST', '/client/webhooks', {
      key,
      body: {
        url: `${receiver.base}${path}`,
        event_types: ['journey.entered', 'journey.step_completed', 'journey.exited'],
      },
    });
    expect(hook.status).toBe(201);
    const created = await call('POST', '/client/journeys', {
      key,
      body: { name: 'Tag builders', definition: journey },
    });
    expect(created.status).toBe(201);
    const { id: journeyId, draft_version } = created.body.data;
    const published = await call('POST', `/client/journeys/${journeyId}/publish`, { key, body: { draft_version } });
    expect(published.status).toBe(201);
    const email = `hook-${randomUUID().slice(0, 8)}@example.com`;

    // Act
    const event = await call('POST', '/client/events?sync=true', {
      key,
      body: { type: 'project_created', email, auto_create_contact: true },
    });
    expect(event.status).toBe(201);
    const runId = event.body.data.journey_entries[0].run_id as number;
    const mine = () => received.filter((d) => d.path === path);
    await eventually('the run’s four journey deliveries', async () => (mine().length >= 4 ? true : undefined), {
      timeoutMs: 30_000,
    });

    // Assess
    // Deliveries arrive in any order: a run's events order by seq, an exit last of its seq (steps left in one move
    // share the move's seq).
    const rank = (type: string) => ['journey.entered', 'journey.step_completed', 'journey.exited'].indexOf(type);
    const ordered = [...mine()].sort(
      (a, b) => a.payload.data['seq'] - b.payload.data['seq'] || rank(a.payload.type) - rank(b.payload.type),
    );
    expect(ordered.map((d) => [d.payload.type, d.payload.data['step_id'] ?? null])).toEqual(
      expect.arrayContaining([
        ['journey.entered', 'tag'],
        ['journey.step_completed', 'tag'],
        ['journey.step_completed', 'out'],
        ['journey.exited', 'out'],
      ]),
    );
    expect(ordered[0]!.payload.type).toBe('journey.entered');
    expect(ordered[3]!.payload.type).toBe('journey.exited');
    for (const d of ordered)
      expect(d.payload.data).toMatchObject({ run_id: runId, journey_id: journeyId, journey_version: 1 });
    expect(ordered[0]!.payload.data).toMatchObject({
      seq: 1,
      event: { id: event.body.data.id, type: 'project_created' },
    });
    expect(ordered[3]!.payload.data).toMatchObject({ status: 'exited', reason: 'exit_step', seq: 2 });
    await new Promise((r) => setTimeout(r, 2_000));
    expect(mine()).toHaveLength(4);
  });
});
