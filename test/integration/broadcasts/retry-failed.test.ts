import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { awaitSesMailsTo } from '../support/ses-mailbox.js';

/** The SES mailbox simulator address the local runtime refuses with MessageRejected. */
const REJECT = 'reject@simulator.amazonses.com';

interface View {
  id: number;
  status: string;
  totals: { sent: number; failed: number };
}

const definition = {
  audience: { all_subscribed: true },
  category: 'marketing',
  variants: [{ template_id: 1, subject: 'News for <%= it.contact.first_name %>' }],
  schedule: { mode: 'now' },
};

async function awaitBroadcast(key: string, id: number, what: string, done: (v: View) => boolean): Promise<View> {
  return eventually(
    `broadcast ${id}: ${what}`,
    async () => {
      const view = (await call('GET', `/client/broadcasts/${id}`, { key })).body.data as View | undefined;
      return view && done(view) ? view : undefined;
    },
    { timeoutMs: 90_000 },
  );
}

/**
 * Retry failed over HTTP against the local runtime: a broadcast whose send SES refused for one recipient (the
 * simulator's reject address) is sent again to that one only — once its address is corrected — at the broadcast's
 * pace, the sent broadcast going back to sending and ending sent again; a second retry sends nothing more; a draft is
 * 409 and another client's broadcast 404.
 */
describe('retry failed', () => {
  it('sends only the failed recipients again, once, and a second retry sends nothing', async () => {
    // Prepare: 3 ordinary contacts and one SES refuses.
    const client = await createTestClient('scale');
    const key = client.api_key;
    const run = randomUUID().slice(0, 8);
    const addresses = ['a', 'b', 'c'].map((n) => `rf-${n}-${run}@example.com`);
    for (const [i, email] of addresses.entries()) {
      const made = await call('POST', '/client/contacts', { key, body: { email, first_name: `N${i}` } });
      expect(made.status, made.text).toBe(201);
    }
    const rejected = await call('POST', '/client/contacts', { key, body: { email: REJECT, first_name: 'R' } });
    expect(rejected.status, rejected.text).toBe(201);
    const created = await call('POST', '/client/broadcasts', { key, body: { name: 'News', definition } });
    const id = created.body.data?.id as number;
    const draft = await call('POST', `/client/broadcasts/${id}/retry-failed`, { key });
    await call('POST', `/client/broadcasts/${id}/schedule`, { key, body: { draft_version: 1 } });
    await awaitBroadcast(
      key,
      id,
      'sent 3, failed 1',
      (v) => v.status === 'sent' && v.totals.sent === 3 && v.totals.failed === 1,
    );
    // The address corrected, so the retried send goes through.
    const fixed = `rf-fixed-${run}@example.com`;
    const patched = await call('PATCH', `/client/contacts/${rejected.body.data?.id}`, { key, body: { email: fixed } });
    expect(patched.status, patched.text).toBe(200);

    // Act
    const retry = await call('POST', `/client/broadcasts/${id}/retry-failed`, { key });
    const done = await awaitBroadcast(key, id, 'sent again, 4 sent', (v) => v.status === 'sent' && v.totals.sent === 4);
    const again = await call('POST', `/client/broadcasts/${id}/retry-failed`, { key });
    const foreign = await call('POST', `/client/broadcasts/${id}/retry-failed`, {
      key: (await createTestClient('scale')).api_key,
    });
    // Settle: the second job's 16 chains have read their shards (a page a message, the queue polled every 100 ms).
    await new Promise((resolve) => setTimeout(resolve, 5_000));

    // Assess
    expect(draft.status, draft.text).toBe(409);
    expect(retry.status, retry.text).toBe(202);
    expect(retry.body.data).toEqual({ broadcast_id: id, retrying: 1 });
    expect(done.totals).toMatchObject({ sent: 4, failed: 1 });
    expect(again.status, again.text).toBe(202);
    expect(again.body.data).toEqual({ broadcast_id: id, retrying: 0 });
    expect(foreign.status, foreign.text).toBe(404);
    // A broadcast's `sent` counts claims: a recipient SES throttled is counted while it backs off (seconds), so its
    // mail is waited for, then there must be exactly one.
    for (const email of addresses) expect(await awaitSesMailsTo(email, 1), email).toHaveLength(1);
    expect(await awaitSesMailsTo(fixed, 1)).toHaveLength(1);
    const final = (await call('GET', `/client/broadcasts/${id}`, { key })).body.data as View;
    expect(final).toMatchObject({ status: 'sent', totals: { sent: 4 } });
  }, 200_000);
});
