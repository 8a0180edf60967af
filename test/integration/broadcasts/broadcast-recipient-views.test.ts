import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';

/** The SES mailbox simulator address the local runtime refuses with MessageRejected. */
const REJECT = 'reject@simulator.amazonses.com';

interface Item {
  kind: string;
  id: number | string;
  status: number;
  workflow_id: number;
  broadcast_id: number | null;
}

/**
 * A broadcast's recipients are executions with `workflow_id` 0: the contact's timeline shows them (checked against
 * the OpenAPI document by `call`) with the broadcast they belong to, and a failed one is retried by its broadcast,
 * never alone, so it keeps the broadcast's pace and listing.
 */
describe("a broadcast recipient's execution", () => {
  it('is on the contact timeline with its broadcast_id, and a single retry of a failed one is 409 naming retry-failed', async () => {
    // Prepare: one contact SES accepts and one it refuses.
    const client = await createTestClient('scale');
    const key = client.api_key;
    const ok = await call('POST', '/client/contacts', {
      key,
      body: { email: `rv-${randomUUID().slice(0, 8)}@example.com`, first_name: 'Ok' },
    });
    const refused = await call('POST', '/client/contacts', { key, body: { email: REJECT, first_name: 'No' } });
    const created = await call('POST', '/client/broadcasts', {
      key,
      body: {
        name: 'News',
        definition: {
          audience: { all_subscribed: true },
          category: 'marketing',
          variants: [{ template_id: 1 }],
          schedule: { mode: 'now' },
        },
      },
    });
    const id = created.body.data?.id as number;
    const scheduled = await call('POST', `/client/broadcasts/${id}/schedule`, { key, body: { draft_version: 1 } });
    expect(scheduled.status, scheduled.text).toBe(200);
    await eventually(
      `broadcast ${id} sent`,
      async () => {
        const view = (await call('GET', `/client/broadcasts/${id}`, { key })).body.data;
        return view?.status === 'sent' && view.totals.failed === 1 ? view : undefined;
      },
      { timeoutMs: 90_000 },
    );

    // Act
    const sentTimeline = await call('GET', `/client/contacts/${ok.body.data?.id}/activity`, { key });
    const failedTimeline = await call('GET', `/client/contacts/${refused.body.data?.id}/activity`, { key });
    const failed = ((failedTimeline.body.data?.items ?? []) as Item[]).find((i) => i.kind === 'execution');
    const retry = await call('POST', `/client/executions/${failed?.id}/retry`, { key });

    // Assess
    expect(sentTimeline.status, sentTimeline.text).toBe(200);
    const items = sentTimeline.body.data?.items as Item[];
    expect(items.filter((i) => i.kind === 'execution' || i.kind === 'sent_email')).toEqual([
      expect.objectContaining({ kind: 'sent_email', workflow_id: 0, broadcast_id: id }),
      expect.objectContaining({ kind: 'execution', workflow_id: 0, broadcast_id: id, status: 3 }),
    ]);
    expect(failed).toMatchObject({ workflow_id: 0, broadcast_id: id, status: 4 });
    expect(retry.status, retry.text).toBe(409);
    expect(retry.body.errors?.[0]?.error).toContain(`/client/broadcasts/${id}/retry-failed`);
  }, 150_000);
});
