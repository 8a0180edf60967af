import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { sesMailsTo } from '../support/ses-mailbox.js';

/**
 * The broadcasts API over HTTP against the local runtime: a draft refused with every problem at once, scheduled now
 * to a segment (its members mailed once each, the others never), its totals counted, the state moves refused where
 * they do not apply, and another client's broadcast a 404 on every verb.
 */
const proSegment = {
  match: 'all',
  groups: [{ match: 'all', conditions: [{ on: 'custom_field', name: 'plan', op: 'eq', value: 'pro' }] }],
};
const definition = (segmentId: number) => ({
  audience: { segment_id: segmentId },
  category: 'marketing',
  variants: [{ template_id: 1, subject: 'News for <%= it.contact.first_name %>' }],
  schedule: { mode: 'now' },
});

describe('broadcasts API', () => {
  it('sends a scheduled broadcast to each member of its segment once, and counts it', async () => {
    // Prepare
    const { api_key: key } = await createTestClient('scale');
    const run = randomUUID().slice(0, 8);
    const addresses = ['a', 'b', 'c', 'd'].map((n) => `bc-${n}-${run}@example.com`);
    for (const [i, email] of addresses.entries()) {
      const made = await call('POST', '/client/contacts', {
        key,
        body: { email, first_name: `N${i}`, custom_fields: { plan: i < 3 ? 'pro' : 'free' } },
      });
      expect(made.status, made.text).toBe(201);
    }
    const segment = await call('POST', '/client/segments', { key, body: { name: 'Pro', definition: proSegment } });
    const segmentId = segment.body.data?.id as number;
    await eventually('the segment ready with its 3 members', async () => {
      const read = await call('GET', `/client/segments/${segmentId}`, { key });
      const data = read.body.data as { status?: string; count?: number } | undefined;
      return data?.status === 'ready' && data.count === 3 ? true : undefined;
    });

    // Act
    const created = await call('POST', '/client/broadcasts', {
      key,
      body: { name: 'November news', definition: definition(segmentId) },
    });
    const id = created.body.data?.id as number;
    const early = await call('POST', `/client/broadcasts/${id}/pause`, { key });
    const scheduled = await call('POST', `/client/broadcasts/${id}/schedule`, { key, body: { draft_version: 1 } });
    const again = await call('POST', `/client/broadcasts/${id}/schedule`, { key, body: { draft_version: 1 } });

    // Assess
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({ status: 'draft', draft_version: 1, definition: { topic_id: null } });
    expect(early.status).toBe(409);
    expect(scheduled.status, scheduled.text).toBe(200);
    expect(scheduled.body.data).toMatchObject({ status: 'scheduled' });
    expect(again.status).toBe(409);
    const sent = await eventually(
      'the broadcast sent and counted',
      async () => {
        const read = await call('GET', `/client/broadcasts/${id}`, { key });
        const data = read.body.data as { status?: string; totals?: { sent?: number } } | undefined;
        return data?.status === 'sent' && data.totals?.sent === 3 ? data : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(sent).toMatchObject({ recipients: 3, totals: { sent: 3, skipped: 0 } });
    for (const [i, email] of addresses.entries()) {
      const mails = await sesMailsTo(email);
      expect(mails, email).toHaveLength(i < 3 ? 1 : 0);
      if (i < 3) expect(mails[0]!.subject).toBe(`News for N${i}`);
    }
    const list = await call('GET', '/client/broadcasts', { key });
    expect(list.body.data?.broadcasts).toEqual([expect.objectContaining({ id, status: 'sent' })]);
    const cancelSent = await call('POST', `/client/broadcasts/${id}/cancel`, { key });
    expect(cancelSent.status).toBe(409);
  });

  it('answers every problem of a definition at once, and 404 to another client on every verb', async () => {
    // Prepare
    const { api_key: key } = await createTestClient();
    const other = await createTestClient();

    // Act
    const refused = await call('POST', '/client/broadcasts', {
      key,
      body: {
        name: 'x',
        definition: {
          audience: { topic_id: 999 },
          category: 'transactional',
          topic_id: 998,
          variants: [{ template_id: 99_999 }],
          schedule: { mode: 'at', send_at: '2020-01-01T00:00:00Z' },
        },
      },
    });
    const made = await call('POST', '/client/broadcasts', {
      key,
      body: { name: 'Mine', definition: { ...definition(1), audience: { all_subscribed: true } } },
    });
    const id = made.body.data?.id as number;
    const foreign = await Promise.all([
      call('GET', `/client/broadcasts/${id}`, { key: other.api_key }),
      call('POST', `/client/broadcasts/${id}/schedule`, { key: other.api_key, body: { draft_version: 1 } }),
      call('POST', `/client/broadcasts/${id}/pause`, { key: other.api_key }),
      call('POST', `/client/broadcasts/${id}/resume`, { key: other.api_key }),
      call('POST', `/client/broadcasts/${id}/cancel`, { key: other.api_key }),
    ]);

    // Assess
    expect(refused.status).toBe(422);
    expect(
      refused.body.errors.map((e: { key: string; condition: string }) => `${e.key}:${e.condition}`).sort(),
    ).toEqual([
      'definition.audience.topic_id:reference',
      'definition.audience:read_only',
      'definition.schedule.send_at:min',
      'definition.topic_id:format',
      'definition.topic_id:read_only',
      'definition.topic_id:reference',
      'definition.variants.0.template_id:reference',
    ]);
    expect(made.status, made.text).toBe(201);
    expect(foreign.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
  });
});
