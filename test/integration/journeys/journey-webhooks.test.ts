import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { webhookReceiver, type ReceivedDelivery } from '../support/webhook-receiver.js';

/** Journey webhooks over HTTP: a run's entry, each step it leaves and its end reach a subscribed receiver, once each. */
const receiver = webhookReceiver();
const { received } = receiver;
const JOURNEY_EVENTS = ['journey.entered', 'journey.step_completed', 'journey.exited'];

/** A receiver subscribed to journey.* under its own path, and its signing secret (shown once, at creation). */
async function subscribe(key: string): Promise<{ path: string; secret: string }> {
  const path = `/journeys-${randomUUID().slice(0, 8)}`;
  const hook = await call('POST', '/client/webhooks', {
    key,
    body: { url: `${receiver.base}${path}`, event_types: JOURNEY_EVENTS },
  });
  expect(hook.status).toBe(201);
  return { path, secret: hook.body.data.secret as string };
}

/** What a Standard Webhooks receiver does: verify the raw body against the three headers with the endpoint's secret. */
function expectSigned(secret: string, d: ReceivedDelivery): void {
  const verified = new Webhook(secret).verify(d.body, {
    'webhook-id': String(d.headers['webhook-id']),
    'webhook-timestamp': String(d.headers['webhook-timestamp']),
    'webhook-signature': String(d.headers['webhook-signature']),
  });
  expect(verified).toEqual(d.payload);
  expect(d.headers['webhook-id']).toBe((d.payload as { id?: string }).id);
}

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
    const { path, secret } = await subscribe(key);
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
    for (const d of ordered) {
      expectSigned(secret, d);
      expect(d.payload.data).toMatchObject({
        run_id: runId,
        execution_id: null,
        journey_id: journeyId,
        journey_version: 1,
      });
    }
    expect(ordered[0]!.payload.data).toMatchObject({
      seq: 1,
      event: { id: event.body.data.id, type: 'project_created' },
    });
    expect(ordered[3]!.payload.data).toMatchObject({ status: 'exited', reason: 'exit_step', seq: 2 });
    await new Promise((r) => setTimeout(r, 2_000));
    expect(mine()).toHaveLength(4);
  });

  it('tells the same receiver of the system journeys a signup enters: welcome sent and ended, the next day’s waiting', async () => {
    // Prepare
    const { api_key: key } = await createTestClient();
    const { path, secret } = await subscribe(key);
    const email = `hook-sys-${randomUUID().slice(0, 8)}@example.com`;

    // Act
    const event = await call('POST', '/client/events?sync=true', {
      key,
      body: { type: 'signup', email, auto_create_contact: true },
    });
    expect(event.status).toBe(201);
    const {
      contact_id: contactId,
      id: eventId,
      execution_ids: executionIds,
    } = event.body.data as {
      contact_id: number;
      id: number;
      execution_ids: number[];
    };
    const mine = () => received.filter((d) => d.path === path);
    const of = (journeyId: number) => mine().filter((d) => d.payload.data['journey_id'] === journeyId);
    // Journey 1 (welcome, no delay) enters, sends and ends; journey 2 (getting started, a day later) enters and waits.
    await eventually(
      'journey 1’s three deliveries and journey 2’s entry',
      async () => (of(1).length >= 3 && of(2).length >= 1 ? true : undefined),
      { timeoutMs: 30_000 },
    );

    // Assess
    const welcome = [...of(1)].sort((a, b) => a.payload.data['seq'] - b.payload.data['seq']);
    expect(welcome.map((d) => [d.payload.type, d.payload.data['seq'], d.payload.data['step_id']])).toEqual([
      ['journey.entered', 1, 'send'],
      expect.arrayContaining([2, 'send']),
      expect.arrayContaining([2, 'send']),
    ]);
    expect(welcome.map((d) => d.payload.type).sort()).toEqual([...JOURNEY_EVENTS].sort());
    const executionId = welcome[0]!.payload.data['execution_id'] as number;
    expect(executionIds).toContain(executionId);
    for (const d of mine()) {
      expectSigned(secret, d);
      expect(d.payload.data).toMatchObject({ run_id: null, journey_version: null, contact_id: contactId });
    }
    for (const d of welcome) expect(d.payload.data['execution_id']).toBe(executionId);
    expect(welcome[0]!.payload.data).toMatchObject({ event: { id: eventId, type: 'signup' }, key_value: null });
    const exited = welcome.find((d) => d.payload.type === 'journey.exited')!;
    expect(exited.payload.data).toMatchObject({ status: 'completed', reason: null });
    // The execution the journey ran as reads back completed (3).
    const execution = await call('GET', `/client/executions?workflow_id=1`, { key });
    expect(execution.body.data.executions).toContainEqual(expect.objectContaining({ id: executionId, status: 3 }));
    expect(of(2).map((d) => [d.payload.type, d.payload.data['step_id']])).toEqual([['journey.entered', 'send']]);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(of(1)).toHaveLength(3);
    expect(of(2)).toHaveLength(1);
  });
});
