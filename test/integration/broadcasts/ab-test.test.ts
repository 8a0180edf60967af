import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { type SesMail, sesMails } from '../support/ses-mailbox.js';
import { HUMAN_UA, injectSesEvent, sesEvent, snsEnvelope } from '../tracking/support.js';

/**
 * A broadcast's A/B test over HTTP against the local runtime (a journey minute lasts a second there, so
 * `decide_after_hours: 1` is a minute): 30 contacts, half of them tested on two subjects. People open variant B's
 * e-mails, Apple Mail Privacy Protection (a machine) variant A's; at its time B wins, and the other half — held out
 * until then — get B's subject. Every contact is mailed exactly once.
 */
interface AbView {
  winner: number | null;
  decided_at: string | null;
  decided_rates: number[] | null;
  variants: { variant: number; sent: number; delivered: number; human_opens: number; machine_opens: number }[];
}
interface View {
  status: string;
  started_at: string | null;
  recipients: number | null;
  totals: { sent: number };
  ab: AbView | null;
}

const CONTACTS = 30;

async function read(key: string, id: number): Promise<View> {
  const got = await call('GET', `/client/broadcasts/${id}`, { key });
  expect(got.status, got.text).toBe(200);
  return got.body.data as View;
}

const sesMailOf = (mail: SesMail, address: string) => ({
  messageId: mail.messageId,
  timestamp: new Date(mail.at * 1000).toISOString(),
  source: mail.from,
  destination: [address],
  tags: { 'ses:configuration-set': ['email-lifecycle'] },
});

describe('a broadcast A/B test', () => {
  it("sends the test share its variants, picks the one people opened more, and sends the rest that one's subject", async () => {
    // Prepare
    const { api_key: key } = await createTestClient('scale');
    const run = randomUUID().slice(0, 8);
    const addresses = Array.from({ length: CONTACTS }, (_, i) => `ab-${i}-${run}@example.com`);
    for (const email of addresses) {
      const made = await call('POST', '/client/contacts', { key, body: { email } });
      expect(made.status, made.text).toBe(201);
    }
    const definition = {
      audience: { all_subscribed: true },
      category: 'marketing',
      variants: [
        { template_id: 1, subject: `Subject A ${run}` },
        { template_id: 1, subject: `Subject B ${run}` },
      ],
      schedule: { mode: 'now' },
    };
    const mine = async () => (await sesMails()).filter((m) => m.subject.endsWith(run));

    // Act: refused without its test, then made with one and scheduled
    const refused = await call('POST', '/client/broadcasts', { key, body: { name: 'AB', definition } });
    const created = await call('POST', '/client/broadcasts', {
      key,
      body: {
        name: 'AB',
        definition: { ...definition, ab: { test_percent: 50, metric: 'human_opens', decide_after_hours: 1 } },
      },
    });
    const id = created.body.data?.id as number;
    const scheduled = await call('POST', `/client/broadcasts/${id}/schedule`, { key, body: { draft_version: 1 } });

    // The test share is sent (and counted per variant); the holdouts wait.
    const tested = await eventually(
      'the test share sent and counted per variant',
      async () => {
        const view = await read(key, id);
        const mails = await mine();
        const counted = (view.ab?.variants ?? []).reduce((n, v) => n + v.sent, 0);
        // The pacer releases the whole test share within a few seconds of the start (scale plan: 100 a second), and
        // the counts follow by ~10 s: 20 s after the start, what is mailed and counted is the whole test share.
        const settled = view.started_at !== null && Date.now() - Date.parse(view.started_at) >= 20_000;
        return settled &&
          view.recipients === CONTACTS &&
          counted > 0 &&
          counted === mails.length &&
          view.totals.sent === counted
          ? { view, mails }
          : undefined;
      },
      { timeoutMs: 40_000 },
    );
    const first = tested.mails;
    const toOf = (m: SesMail) => m.destination.to[0]!.toLowerCase();
    const bMails = first.filter((m) => m.subject.startsWith('Subject B'));
    const aMails = first.filter((m) => m.subject.startsWith('Subject A'));
    const at = new Date().toISOString();
    for (const m of bMails)
      await injectSesEvent(snsEnvelope(sesEvent.open(sesMailOf(m, toOf(m)), at, { userAgent: HUMAN_UA })));
    for (const m of aMails)
      await injectSesEvent(
        snsEnvelope(sesEvent.open(sesMailOf(m, toOf(m)), at, { userAgent: 'Mozilla/5.0', ipAddress: '17.58.101.1' })),
      );
    const counted = await eventually(
      "the opens counted on their variants' rows",
      async () => {
        const view = await read(key, id);
        const [a, b] = view.ab!.variants;
        return b!.human_opens === bMails.length && a!.machine_opens === aMails.length ? view : undefined;
      },
      { timeoutMs: 30_000 },
    );

    // Assess: B wins at its time, and the rest get B; each contact is mailed once.
    const done = await eventually(
      'the winner chosen and every holdout sent',
      async () => {
        const view = await read(key, id);
        return view.status === 'sent' && view.ab?.winner !== null && view.totals.sent === CONTACTS ? view : undefined;
      },
      { timeoutMs: 150_000 },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([expect.objectContaining({ key: 'definition.ab', condition: 'required' })]);
    expect(created.status, created.text).toBe(201);
    expect(scheduled.status, scheduled.text).toBe(200);
    expect(aMails.length).toBeGreaterThan(0);
    expect(bMails.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(CONTACTS);
    expect(counted.ab!.winner).toBeNull();
    expect(counted.ab!.variants[0]!.human_opens).toBe(0);
    expect(done.ab).toMatchObject({ winner: 1, decided_at: expect.any(String) });
    expect(done.ab!.decided_rates![1]).toBeGreaterThan(done.ab!.decided_rates![0]!);
    const all = await mine();
    const byAddress = new Map<string, SesMail[]>();
    for (const m of all) byAddress.set(toOf(m), [...(byAddress.get(toOf(m)) ?? []), m]);
    expect([...byAddress.keys()].sort()).toEqual([...addresses].sort());
    for (const [address, mails] of byAddress) expect(mails, address).toHaveLength(1);
    const firstIds = new Set(first.map((m) => m.messageId));
    const holdouts = all.filter((m) => !firstIds.has(m.messageId));
    expect(holdouts).toHaveLength(CONTACTS - first.length);
    for (const m of holdouts) expect(m.subject).toBe(`Subject B ${run}`);
  }, 240_000);
});
