import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { awaitSesMailsTo, sesMailsTo } from '../support/ses-mailbox.js';

/**
 * A broadcast's draft edited and deleted, its test send to the client's own users, and a segment held by the
 * broadcasts scheduled to it — over HTTP against the local runtime.
 */
const proSegment = {
  match: 'all',
  groups: [{ match: 'all', conditions: [{ on: 'custom_field', name: 'plan', op: 'eq', value: 'pro' }] }],
};
const definition = (audience: Record<string, unknown>, subject = 'News for <%= it.contact.first_name %>') => ({
  audience,
  category: 'marketing',
  variants: [{ template_id: 1, subject }],
  schedule: { mode: 'at', send_at: new Date(Date.now() + 3_600_000).toISOString() },
});
const keysOf = (errors: { key: string; condition: string }[]) => errors.map((e) => `${e.key}:${e.condition}`).sort();

describe('broadcast drafts, test sends and the segments they hold', () => {
  it('replaces a draft whole at the version read, refuses a stale or scheduled one, and deletes drafts only', async () => {
    // Prepare
    const { api_key: key } = await createTestClient('scale');
    const other = await createTestClient('scale');
    const made = await call('POST', '/client/broadcasts', {
      key,
      body: { name: 'First', definition: definition({ all_subscribed: true }) },
    });
    const id = made.body.data.id as number;

    // Act
    const saved = await call('PUT', `/client/broadcasts/${id}`, {
      key,
      body: { name: 'Second', definition: definition({ all_subscribed: true }, 'Hello'), draft_version: 1 },
    });
    const stale = await call('PUT', `/client/broadcasts/${id}`, {
      key,
      body: { name: 'Third', definition: definition({ all_subscribed: true }), draft_version: 1 },
    });
    const refused = await call('PUT', `/client/broadcasts/${id}`, {
      key,
      body: {
        name: 'Broken',
        definition: { ...definition({ segment_id: 999 }), variants: [{ template_id: 99_999 }] },
        draft_version: 2,
      },
    });
    const foreign = await Promise.all([
      call('PUT', `/client/broadcasts/${id}`, {
        key: other.api_key,
        body: { name: 'Theirs', definition: definition({ all_subscribed: true }), draft_version: 2 },
      }),
      call('DELETE', `/client/broadcasts/${id}`, { key: other.api_key }),
      call('POST', `/client/broadcasts/${id}/test`, { key: other.api_key, body: { emails: [other.owner_email] } }),
    ]);
    const after = await call('GET', `/client/broadcasts/${id}`, { key });
    const scheduled = await call('POST', `/client/broadcasts/${id}/schedule`, { key, body: { draft_version: 2 } });
    const editScheduled = await call('PUT', `/client/broadcasts/${id}`, {
      key,
      body: { name: 'Late', definition: definition({ all_subscribed: true }), draft_version: 2 },
    });
    const deleteScheduled = await call('DELETE', `/client/broadcasts/${id}`, { key });
    const draft = await call('POST', '/client/broadcasts', {
      key,
      body: { name: 'Scrap', definition: definition({ all_subscribed: true }) },
    });
    const deleted = await call('DELETE', `/client/broadcasts/${draft.body.data.id}`, { key });
    const gone = await call('GET', `/client/broadcasts/${draft.body.data.id}`, { key });
    await call('POST', `/client/broadcasts/${id}/cancel`, { key });

    // Assess
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data).toMatchObject({
      id,
      name: 'Second',
      status: 'draft',
      draft_version: 2,
      definition: { variants: [{ template_id: 1, subject: 'Hello' }] },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0]).toMatchObject({ condition: 'state', key: 'draft_version' });
    expect(refused.status).toBe(422);
    expect(keysOf(refused.body.errors)).toEqual([
      'definition.audience.segment_id:reference',
      'definition.variants.0.template_id:reference',
    ]);
    expect(foreign.map((r) => r.status)).toEqual([404, 404, 404]);
    expect(after.body.data).toMatchObject({ name: 'Second', draft_version: 2 });
    expect(scheduled.status, scheduled.text).toBe(200);
    expect(editScheduled.status).toBe(409);
    expect(editScheduled.body.errors[0]).toMatchObject({ condition: 'state', key: 'status' });
    expect(deleteScheduled.status).toBe(409);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.data).toEqual({ id: draft.body.data.id, deleted: true });
    expect(gone.status).toBe(404);
  });

  it("sends a test of each variant to the client's own users only, from its sender, and counts nothing", async () => {
    // Prepare
    const client = await createTestClient('scale');
    const sandboxed = await createTestClient('scale', { sandbox: true });
    const key = client.api_key;
    const stranger = `stranger-${randomUUID().slice(0, 8)}@example.com`;
    const made = await call('POST', '/client/broadcasts', {
      key,
      body: { name: 'Launch', definition: definition({ all_subscribed: true }) },
    });
    const id = made.body.data.id as number;
    const sandboxMade = await call('POST', '/client/broadcasts', {
      key: sandboxed.api_key,
      body: { name: 'Launch', definition: definition({ all_subscribed: true }) },
    });

    // Act
    const outsider = await call('POST', `/client/broadcasts/${id}/test`, {
      key,
      body: { emails: [client.owner_email, stranger] },
    });
    const tooMany = await call('POST', `/client/broadcasts/${id}/test`, {
      key,
      body: { emails: Array.from({ length: 6 }, () => client.owner_email) },
    });
    const tested = await call('POST', `/client/broadcasts/${id}/test`, { key, body: { emails: [client.owner_email] } });
    const sandboxTested = await call('POST', `/client/broadcasts/${sandboxMade.body.data.id}/test`, {
      key: sandboxed.api_key,
      body: { emails: [sandboxed.owner_email] },
    });

    // Assess
    expect(outsider.status).toBe(422);
    expect(keysOf(outsider.body.errors)).toEqual(['emails.1:reference']);
    expect(tooMany.status).toBe(422);
    expect(tested.status, tested.text).toBe(200);
    // The user stands in for the contact: the owner's name is its account name's first word.
    expect(tested.body.data.sent).toEqual([
      { email: client.owner_email, variant: 0, subject: expect.stringMatching(/^\[Test\] News for /) },
    ]);
    const [mail] = await awaitSesMailsTo(client.owner_email);
    expect(mail!.subject).toBe(tested.body.data.sent[0].subject);
    expect(mail!.from).toContain(`no-reply@${client.domain}`);
    expect(await sesMailsTo(stranger)).toEqual([]);
    expect(sandboxTested.status, sandboxTested.text).toBe(200);
    const [sandboxMail] = await awaitSesMailsTo(sandboxed.owner_email);
    expect(sandboxMail!.from).not.toContain('test.example');
    const read = await call('GET', `/client/broadcasts/${id}`, { key });
    expect(read.body.data).toMatchObject({ status: 'draft', recipients: null, totals: { sent: 0 } });
    const contacts = await call('GET', '/client/contacts', { key });
    expect(contacts.body.data.contacts).toEqual([]);
    // 20 test sends an hour a client (the first counted above): the 21st is refused.
    const more = [];
    for (let i = 0; i < 20; i += 1)
      more.push(
        (await call('POST', `/client/broadcasts/${id}/test`, { key, body: { emails: [client.owner_email] } })).status,
      );
    expect(more).toEqual([...Array.from({ length: 19 }, () => 200), 429]);
  });

  it('refuses to delete a segment a live broadcast is scheduled to, naming it, until that one is cancelled', async () => {
    // Prepare
    const { api_key: key } = await createTestClient('scale');
    const segment = await call('POST', '/client/segments', { key, body: { name: 'Pro', definition: proSegment } });
    const segmentId = segment.body.data.id as number;
    const ids: number[] = [];
    for (const name of ['One', 'Two', 'Draft']) {
      const made = await call('POST', '/client/broadcasts', {
        key,
        body: { name, definition: definition({ segment_id: segmentId }) },
      });
      ids.push(made.body.data.id as number);
    }
    for (const id of ids.slice(0, 2)) {
      const scheduled = await call('POST', `/client/broadcasts/${id}/schedule`, { key, body: { draft_version: 1 } });
      expect(scheduled.status, scheduled.text).toBe(200);
    }

    // Act
    const held = await call('DELETE', `/client/segments/${segmentId}`, { key });
    await call('POST', `/client/broadcasts/${ids[0]}/cancel`, { key });
    const stillHeld = await call('DELETE', `/client/segments/${segmentId}`, { key });
    await call('POST', `/client/broadcasts/${ids[1]}/cancel`, { key });
    const deleted = await call('DELETE', `/client/segments/${segmentId}`, { key });
    const scheduleDraft = await call('POST', `/client/broadcasts/${ids[2]}/schedule`, {
      key,
      body: { draft_version: 1 },
    });

    // Assess
    expect(held.status).toBe(409);
    expect(held.body.errors).toEqual([
      {
        condition: 'state',
        key: 'id',
        error: `Broadcasts ${ids[0]}, ${ids[1]} send to this segment: cancel them, or wait until they are sent, then delete it`,
      },
    ]);
    expect(stillHeld.status).toBe(409);
    expect(stillHeld.body.errors[0].error).toMatch(new RegExp(`^Broadcast ${ids[1]} sends to this segment`));
    expect(deleted.status, deleted.text).toBe(200);
    // The draft that named it is refused at schedule: its segment is gone.
    expect(scheduleDraft.status).toBe(422);
    expect(keysOf(scheduleDraft.body.errors)).toEqual(['definition.audience.segment_id:reference']);
  });
});
