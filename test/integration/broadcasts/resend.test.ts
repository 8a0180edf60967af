import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { sesMailsTo } from '../support/ses-mailbox.js';
import { HUMAN_UA, injectSesEvent, SCANNER_UA, sesEvent, snsEnvelope } from '../tracking/support.js';

/**
 * Resend to non-openers over HTTP against the local runtime (a journey minute lasts a second there, so `after_hours: 1`
 * is a minute): a broadcast to 5 contacts, two opened by people, one by Apple Mail Privacy Protection (a machine);
 * the resend reaches exactly the 3 others, once each, with its subject; the parent and child link each other; the
 * refusals (not started, a second resend, bad input, another client's) change nothing.
 */
interface View {
  id: number;
  status: string;
  kind: string;
  parent_id: number | null;
  resend_id: number | null;
  recipients: number | null;
  totals: { sent: number; human_opens: number; machine_opens: number };
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
      const read = await call('GET', `/client/broadcasts/${id}`, { key });
      const view = read.body.data as View | undefined;
      return view && done(view) ? view : undefined;
    },
    { timeoutMs: 120_000 },
  );
}

/**
 * The SES event `mail` of the one e-mail the SES emulator holds for `address` (the provider id finds the sent e-mail,
 * as for every notification).
 */
async function mailOf(address: string) {
  const [mail, ...more] = await sesMailsTo(address);
  expect(more, address).toHaveLength(0);
  return {
    messageId: mail!.messageId,
    timestamp: new Date(mail!.at * 1000).toISOString(),
    source: mail!.from,
    destination: [address],
    tags: { 'ses:configuration-set': ['email-lifecycle'] },
  };
}

describe('resend to non-openers', () => {
  it('reaches exactly the recipients no person opened, once each, with its own subject', async () => {
    // Prepare: 5 contacts mailed by a broadcast; 2 opened in a browser, 1 by Apple Mail Privacy Protection.
    const client = await createTestClient('scale');
    const key = client.api_key;
    const run = randomUUID().slice(0, 8);
    const addresses = ['a', 'b', 'c', 'd', 'e'].map((n) => `rs-${n}-${run}@example.com`);
    for (const [i, email] of addresses.entries()) {
      const made = await call('POST', '/client/contacts', { key, body: { email, first_name: `N${i}` } });
      expect(made.status, made.text).toBe(201);
    }
    const created = await call('POST', '/client/broadcasts', { key, body: { name: 'News', definition } });
    const id = created.body.data?.id as number;
    const early = await call('POST', `/client/broadcasts/${id}/resend`, {
      key,
      body: { subject: 'Missed it?', after_hours: 1 },
    });
    await call('POST', `/client/broadcasts/${id}/schedule`, { key, body: { draft_version: 1 } });
    await awaitBroadcast(key, id, 'sent to 5', (v) => v.status === 'sent' && v.totals.sent === 5);
    const mails = await Promise.all(addresses.map(mailOf));
    const at = new Date().toISOString();
    await injectSesEvent(snsEnvelope(sesEvent.open(mails[0]!, at, { userAgent: HUMAN_UA })));
    await injectSesEvent(snsEnvelope(sesEvent.open(mails[1]!, at, { userAgent: HUMAN_UA })));
    await injectSesEvent(
      snsEnvelope(sesEvent.open(mails[2]!, at, { userAgent: 'Mozilla/5.0', ipAddress: '17.58.101.1' })),
    );
    await injectSesEvent(
      snsEnvelope(sesEvent.open(mails[3]!, at, { userAgent: SCANNER_UA, ipAddress: '198.51.100.9' })),
    );
    await awaitBroadcast(
      key,
      id,
      '2 human opens, 2 machine',
      (v) => v.totals.human_opens === 2 && v.totals.machine_opens === 2,
    );

    // Act
    const invalid = await call('POST', `/client/broadcasts/${id}/resend`, { key, body: { after_hours: 0, extra: 1 } });
    const resend = await call('POST', `/client/broadcasts/${id}/resend`, {
      key,
      body: { subject: 'Missed it, <%= it.contact.first_name %>?', after_hours: 1 },
    });
    const second = await call('POST', `/client/broadcasts/${id}/resend`, {
      key,
      body: { subject: 'Again', after_hours: 2 },
    });
    const other = await createTestClient('scale');
    const foreign = await call('POST', `/client/broadcasts/${id}/resend`, {
      key: other.api_key,
      body: { subject: 'Theirs', after_hours: 1 },
    });

    // Assess
    expect(early.status, early.text).toBe(409);
    expect(early.body.errors).toEqual([expect.objectContaining({ condition: 'state', key: 'status' })]);
    expect(invalid.status, invalid.text).toBe(422);
    expect(invalid.body.errors.map((e: { key: string }) => e.key).sort()).toEqual(['', 'after_hours', 'subject']);
    expect(resend.status, resend.text).toBe(201);
    const child = resend.body.data as View & { definition: { schedule: { mode: string } } };
    expect(child).toMatchObject({ status: 'scheduled', kind: 'resend', parent_id: id, resend_id: null });
    expect(second.status, second.text).toBe(409);
    expect(foreign.status, foreign.text).toBe(404);
    const parent = (await call('GET', `/client/broadcasts/${id}`, { key })).body.data as View;
    expect(parent).toMatchObject({ resend_id: child.id, kind: 'broadcast', parent_id: null });
    const done = await awaitBroadcast(
      key,
      child.id,
      'the resend sent to 3',
      (v) => v.status === 'sent' && v.totals.sent === 3,
    );
    expect(done).toMatchObject({ recipients: 3, parent_id: id });
    for (const [i, email] of addresses.entries()) {
      const got = await sesMailsTo(email);
      const subjects = got.map((m) => m.subject).sort();
      if (i < 2) expect(subjects, email).toEqual([`News for N${i}`]);
      else expect(subjects, email).toEqual([`Missed it, N${i}?`, `News for N${i}`].sort());
    }
    const cancelSent = await call('POST', `/client/broadcasts/${child.id}/cancel`, { key });
    expect(cancelSent.status).toBe(409);
  }, 240_000);
});
