import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { createTestClient, type TestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { awaitSesMailsTo, sesMailsTo } from '../support/ses-mailbox.js';

/**
 * A journey branching on segment membership, over the local runtime: on `checked_in`, members of "plan = pro" get
 * template 1 (Welcome), everyone else template 2 (Onboarding tips). Membership is what the segment engine wrote after
 * the contact's change came through the stream, so the test waits for it before the event.
 */
const byPlan = (segmentId: number) => ({
  trigger: { event: 'checked_in', reentry: { mode: 'once' } },
  entry: 'plan',
  steps: [
    {
      id: 'plan',
      type: 'branch',
      branches: [{ name: 'Pro', conditions: [{ on: 'segment', segment_id: segmentId, op: 'member' }], next: 'pro' }],
      otherwise: 'other',
    },
    { id: 'pro', type: 'send', template_id: 1, send_time: { mode: 0 }, next: null },
    { id: 'other', type: 'send', template_id: 2, send_time: { mode: 0 }, next: null },
  ],
  settings: { category: 'transactional', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
});

async function contactWithPlan(client: TestClient, plan: string): Promise<{ id: number; email: string }> {
  const email = `branch-${plan}-${randomUUID()}@example.com`;
  const created = await call('POST', '/client/contacts', {
    key: client.api_key,
    body: { email, first_name: 'Ada', custom_fields: { plan } },
  });
  expect(created.status, created.text).toBe(201);
  return { id: created.body.data.id as number, email };
}

const checkIn = async (client: TestClient, email: string) => {
  const sent = await call('POST', '/client/events?sync=true', {
    key: client.api_key,
    body: { type: 'checked_in', email },
  });
  expect(sent.status, sent.text).toBe(201);
};

describe('a journey branching on segment membership', () => {
  // The contact's change goes through the stream and the evaluator before the events: up to half a minute when busy.
  it('mails members of the segment template 1 and the others template 2, each once; another client’s segment is a 422', {
    timeout: 120_000,
  }, async () => {
    // Prepare
    const client = await createTestClient('growth');
    const segment = await call('POST', '/client/segments', {
      key: client.api_key,
      body: {
        name: 'Pro',
        definition: {
          match: 'all',
          groups: [{ match: 'all', conditions: [{ on: 'custom_field', name: 'plan', op: 'eq', value: 'pro' }] }],
        },
      },
    });
    expect(segment.status, segment.text).toBe(201);
    const segmentId = segment.body.data.id as number;
    const other = await createTestClient();
    const draft = await call('POST', '/client/journeys', {
      key: other.api_key,
      body: { name: 'Not mine', definition: byPlan(segmentId) },
    });
    const stranger = await call('POST', `/client/journeys/${draft.body.data.id}/publish`, {
      key: other.api_key,
      body: { draft_version: draft.body.data.draft_version },
    });
    const created = await call('POST', '/client/journeys', {
      key: client.api_key,
      body: { name: 'By plan', definition: byPlan(segmentId) },
    });
    expect(created.status, created.text).toBe(201);
    const published = await call('POST', `/client/journeys/${created.body.data.id}/publish`, {
      key: client.api_key,
      body: { draft_version: created.body.data.draft_version },
    });
    expect(published.status, published.text).toBe(201);
    const pro = await contactWithPlan(client, 'pro');
    const free = await contactWithPlan(client, 'free');
    await eventually(
      'the pro contact in the segment',
      async () => {
        const page = await call('GET', `/client/segments/${segmentId}/contacts`, { key: client.api_key });
        const ids = (page.body.data?.contacts ?? []).map((c: { id: number }) => c.id);
        return ids.includes(pro.id) ? ids : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 300 },
    );

    // Act
    await checkIn(client, pro.email);
    await checkIn(client, free.email);

    // Assess: each the e-mail of its way, once.
    const [toPro] = await awaitSesMailsTo(pro.email, 1);
    const [toFree] = await awaitSesMailsTo(free.email, 1);
    expect(toPro!.subject).toMatch(/^Welcome to /);
    expect(toFree!.subject).toMatch(/^3 tips to get more out of /);
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(await sesMailsTo(pro.email)).toHaveLength(1);
    expect(await sesMailsTo(free.email)).toHaveLength(1);
    expect(stranger.status, stranger.text).toBe(422);
    expect(JSON.stringify(stranger.body)).toContain('steps.0.branches.0.conditions.0.segment_id');
  });
});
