import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SENT_STATUS, type SentEmailLogRecord } from '../../../shared/domain/sent-emails/sent-email-record.js';
import {
  createClient,
  createContact,
  ENGINE_ADAPTERS,
  executionRecord,
  reservation,
  seedExecutions,
  type EnginePorts,
} from './engine-support.js';
import { AT, freshClientId, LATER } from './support.js';

const DAY = AT.slice(0, 10);

/** A client, its contact and one e-mail claimed (record written, no provider id yet); `send` records the SES id. */
async function claimed(stores: EnginePorts) {
  const clientId = freshClientId();
  await createClient(stores, clientId, { plan: 'growth' });
  const contact = await createContact(stores, clientId);
  const [execution] = await seedExecutions(stores, clientId, [executionRecord(clientId, contact.id)]);
  const r = reservation(execution!);
  expect(await stores.delivery.claim(r)).toBe('claimed');
  const messageId = `ses-${randomUUID()}`;
  return {
    clientId,
    contact,
    sentEmailId: r.sentEmail.id,
    messageId,
    message: {
      client_id: clientId,
      sent_email_id: r.sentEmail.id,
      contact_id: contact.id,
      workflow_id: r.execution.workflow_id,
    },
    send: () => stores.delivery.recordSent(r, messageId, LATER, 'log-sent'),
  };
}

const log = (
  id: string,
  created_at: string,
  status: SentEmailLogRecord['status'],
  fields: Partial<SentEmailLogRecord> = {},
): SentEmailLogRecord => ({
  id,
  created_at,
  status,
  ...fields,
});

describe.each(ENGINE_ADAPTERS)('TrackingStore contract (%s)', (_name, makeStores) => {
  it('finds a recorded message by its provider id, with its client, e-mail and contact', async () => {
    // Prepare
    const stores = makeStores();
    const mail = await claimed(stores);
    await mail.send();

    // Act
    const found = await stores.tracking.findMessage(mail.messageId);
    const unknown = await stores.tracking.findMessage(`ses-${randomUUID()}`);

    // Assess
    expect(found).toEqual(mail.message);
    expect(unknown).toBeUndefined();
  });

  it('finds an e-mail by its tags while it has no provider id (unconfirmed) or this one, never with another id or client', async () => {
    // Prepare
    const stores = makeStores();
    const mail = await claimed(stores);

    // Act
    const inFlight = await stores.tracking.findTaggedMessage(mail.clientId, mail.sentEmailId, mail.messageId);
    await mail.send();
    const recorded = await stores.tracking.findTaggedMessage(mail.clientId, mail.sentEmailId, mail.messageId);
    const otherId = await stores.tracking.findTaggedMessage(mail.clientId, mail.sentEmailId, 'ses-other');
    const otherClient = await stores.tracking.findTaggedMessage(freshClientId(), mail.sentEmailId, mail.messageId);

    // Assess
    // In flight, the execution may still wait for this evidence: the answer says so.
    expect(inFlight).toEqual({ ...mail.message, unconfirmed: true });
    expect(recorded).toEqual(mail.message);
    expect(otherId).toBeUndefined();
    expect(otherClient).toBeUndefined();
  });

  it('writes a log once, moves the contact and the counters in the same write, and answers duplicate the second time', async () => {
    // Prepare
    const stores = makeStores();
    const mail = await claimed(stores);
    await mail.send();
    const opened = log('n-1', '2026-01-15T10:05:00.000Z', SENT_STATUS.opened, {
      ip_address: '203.0.113.7',
      user_agent: 'UA',
      is_bot: false,
    });
    const write = {
      message: mail.message,
      log: opened,
      contact: { countOpen: true, lastOpenedAt: opened.created_at, lastActivityAt: opened.created_at },
    };

    // Act
    const first = await stores.tracking.record(write);
    const second = await stores.tracking.record(write);

    // Assess
    expect([first, second]).toEqual(['recorded', 'duplicate']);
    expect((await stores.tracking.logs(mail.clientId, mail.sentEmailId)).map((l) => [l.id, l.status])).toEqual([
      ['log-' + (await stores.sentEmails.get(mail.clientId, mail.sentEmailId))!.execution_id, SENT_STATUS.queued],
      ['n-1', SENT_STATUS.opened],
      ['log-sent', SENT_STATUS.sent],
    ]);
    expect(await stores.contacts.get(mail.clientId, mail.contact.id)).toMatchObject({
      total_emails_opened: 1,
      last_email_opened_at: opened.created_at,
      last_activity_at: opened.created_at,
    });
  });

  it("counts an e-mail's first human open and click once, even when two notifications both ask to count it at once", async () => {
    // Prepare
    const stores = makeStores();
    const mail = await claimed(stores);
    await mail.send();
    const asCounting = (id: string, at: string, status: SentEmailLogRecord['status']) => ({
      message: mail.message,
      log: log(id, at, status),
      contact: { countOpen: true, countClick: status === SENT_STATUS.clicked, lastActivityAt: at, lastOpenedAt: at },
    });

    // Act
    const outcomes = await Promise.all([
      stores.tracking.record(asCounting('o-1', '2026-01-15T10:05:00.000Z', SENT_STATUS.opened)),
      stores.tracking.record(asCounting('k-1', '2026-01-15T10:05:01.000Z', SENT_STATUS.clicked)),
      stores.tracking.record(asCounting('k-2', '2026-01-15T10:05:02.000Z', SENT_STATUS.clicked)),
    ]);

    // Assess
    expect(outcomes).toEqual(['recorded', 'recorded', 'recorded']);
    expect(await stores.contacts.get(mail.clientId, mail.contact.id)).toMatchObject({
      total_emails_opened: 1,
      total_emails_clicked: 1,
    });
    expect(
      (await stores.tracking.logs(mail.clientId, mail.sentEmailId)).filter(
        (l) => l.id !== 'log-sent' && !l.id.startsWith('log-'),
      ),
    ).toHaveLength(3);
  });

  it('unsubscribes the contact with the reason, keeps transient bounce times, and counts bounces and complaints per day', async () => {
    // Prepare
    const stores = makeStores();
    const mail = await claimed(stores);
    await mail.send();

    // Act
    await stores.tracking.record({
      message: mail.message,
      log: log('t-1', '2026-01-15T10:01:00.000Z', SENT_STATUS.delivery_delayed),
      contact: { transientBounces: ['2026-01-15T10:01:00.000Z'] },
    });
    const times = await stores.tracking.transientBounces(mail.clientId, mail.contact.id);
    await stores.tracking.record({
      message: mail.message,
      log: log('b-1', '2026-01-15T10:02:00.000Z', SENT_STATUS.bounced),
      contact: { suppress: { reason: 'hard_bounce', at: '2026-01-15T10:02:00.000Z' } },
      deliverability: { day: DAY, bounce: true },
    });
    await stores.tracking.record({
      message: mail.message,
      log: log('c-1', '2026-01-15T10:03:00.000Z', SENT_STATUS.complained),
      deliverability: { day: DAY, complaint: true },
    });
    const days = await stores.tracking.deliverabilityDays(mail.clientId, '2026-01-14', DAY);

    // Assess
    expect(times).toEqual(['2026-01-15T10:01:00.000Z']);
    expect(await stores.contacts.get(mail.clientId, mail.contact.id)).toMatchObject({
      is_subscribed: false,
      unsubscribe_reason: 'hard_bounce',
      unsubscribed_at: '2026-01-15T10:02:00.000Z',
    });
    // The claim counted the send on the quota counter: the sends of the day.
    expect(days).toEqual([
      { day: '2026-01-14', sends: 0, bounces: 0, complaints: 0 },
      { day: DAY, sends: 1, bounces: 1, complaints: 1 },
    ]);
  });

  it('still writes the log when the contact is gone, and creates no contact', async () => {
    // Prepare
    const stores = makeStores();
    const mail = await claimed(stores);
    await mail.send();
    const ghost = { ...mail.message, contact_id: mail.contact.id + 1_000_000 };

    // Act
    const outcome = await stores.tracking.record({
      message: ghost,
      log: log('g-1', '2026-01-15T10:04:00.000Z', SENT_STATUS.clicked),
      contact: { countClick: true, lastActivityAt: '2026-01-15T10:04:00.000Z' },
    });

    // Assess
    expect(outcome).toBe('recorded');
    expect((await stores.tracking.logs(mail.clientId, mail.sentEmailId)).some((l) => l.id === 'g-1')).toBe(true);
    expect(await stores.contacts.get(mail.clientId, ghost.contact_id)).toBeUndefined();
    expect(await stores.tracking.transientBounces(mail.clientId, ghost.contact_id)).toBeUndefined();
  });
});
