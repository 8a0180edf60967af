import { describe, expect, it, vi } from 'vitest';
import { sentEmailKey } from '../../../../shared/adapters/memory/engine-data.js';
import { memoryStores, type MemoryStores } from '../../../../shared/adapters/memory/memory-stores.js';
import { signLinkToken } from '../../../../shared/domain/links/link-token.js';
import { LINK_UNSUBSCRIBE_LOG_ID, unsubscribeByLink } from '../../../../shared/domain/links/public-links.js';
import type { UnsubscribeStore } from '../../../../shared/domain/links/unsubscribe-store.js';
import { SENT_STATUS, type SentEmailRecord } from '../../../../shared/domain/sent-emails/sent-email-record.js';
import { contactRecord } from '../../support/contact-fixtures.js';

const SECRET = 'a-local-link-secret-of-at-least-32-bytes';
const CLIENT = 7;
const CONTACT = 42;
const TOPIC = 3;
const EMAIL_ID = '00000000-0000-8000-8000-000000000002';
const SENT_AT = '2026-01-15T09:00:00.000Z';
/** The memory clock's time (FixedClock). */
const NOW = '2026-01-15T10:00:00.000Z';
const TOKEN = signLinkToken(SECRET, { purpose: 'u', clientId: CLIENT, sentEmailId: EMAIL_ID });

const email: SentEmailRecord = {
  id: EMAIL_ID,
  client_id: CLIENT,
  contact_id: CONTACT,
  execution_id: 1,
  workflow_id: 2,
  email_template_id: 2,
  email_template_name: 'Onboarding tips',
  from_email: 'hello@acme.test',
  to_email: 'ann@example.com',
  subject: 'Tips',
  html_body: '<p>Hi</p>',
  text_body: 'Hi',
  browser_url: 'https://els.test/v/x',
  topic_id: TOPIC,
  status: SENT_STATUS.delivered,
  status_updated_at: SENT_AT,
  created_at: SENT_AT,
};

async function seeded(contact: Record<string, unknown> = {}) {
  const stores = memoryStores();
  await stores.contacts.create(contactRecord({ id: CONTACT, client_id: CLIENT, ...contact }));
  stores.sentEmails.data.sentEmails.set(sentEmailKey(CLIENT, EMAIL_ID), structuredClone(email));
  return stores;
}

const depsOf = (stores: MemoryStores, unsubscribe: UnsubscribeStore = stores.unsubscribe) => ({
  sentEmails: stores.sentEmails,
  contacts: stores.contacts,
  clock: stores.clock,
  unsubscribe,
});

async function stateOf(stores: MemoryStores) {
  const contact = (await stores.contacts.get(CLIENT, CONTACT)) as unknown as Record<string, unknown> | undefined;
  const logs = (await stores.sentEmails.getWithLogs(CLIENT, EMAIL_ID))!.logs;
  return {
    is_subscribed: contact?.['is_subscribed'],
    topic: contact?.[`topic_${TOPIC}`],
    logs: logs.map((l) => [l.id, l.status]),
  };
}

const linkUnsubscribes = (stores: MemoryStores) =>
  [...stores.stats.workflowRows.values()].reduce((n, r) => n + (r.counts.unsubscribed_link ?? 0), 0);

describe("the one-click link of a topic's e-mail", () => {
  it('leaves that topic only: topic_<id> false and the unsubscribed log in one write, is_subscribed untouched', async () => {
    // Prepare
    const stores = await seeded();
    const leave = vi.spyOn(stores.unsubscribe, 'leaveTopic');
    const whole = vi.spyOn(stores.unsubscribe, 'unsubscribe');

    // Act
    const answered = await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);

    // Assess
    expect(answered?.id).toBe(EMAIL_ID);
    expect(await stateOf(stores)).toEqual({
      is_subscribed: true,
      topic: false,
      logs: [[LINK_UNSUBSCRIBE_LOG_ID, SENT_STATUS.unsubscribed]],
    });
    expect(leave).toHaveBeenCalledTimes(1);
    expect(whole).not.toHaveBeenCalled();
    expect(linkUnsubscribes(stores)).toBe(1);
  });

  it('writes nothing on a repeat POST (the mail client retries, the person clicks again)', async () => {
    const stores = await seeded();
    await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);
    const logs = vi.spyOn(stores.sentEmails, 'addLog');

    await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);

    expect(logs).not.toHaveBeenCalled();
    expect((await stateOf(stores)).logs).toHaveLength(1);
    expect(linkUnsubscribes(stores)).toBe(1);
  });

  it('a contact that had left the topic already gets only the missing log', async () => {
    const stores = await seeded({ [`topic_${TOPIC}`]: false });

    await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);

    expect(await stateOf(stores)).toEqual({
      is_subscribed: true,
      topic: false,
      logs: [[LINK_UNSUBSCRIBE_LOG_ID, SENT_STATUS.unsubscribed]],
    });
    expect((await stores.sentEmails.getWithLogs(CLIENT, EMAIL_ID))!.logs[0]!.created_at).toBe(NOW);
  });

  it('fault: the write dies — nothing is half-written, and the next POST does it all', async () => {
    // Prepare: the store fails before its transaction lands (DynamoDB: the transaction is all or nothing)
    const stores = await seeded();
    const failing: UnsubscribeStore = {
      ...stores.unsubscribe,
      unsubscribe: stores.unsubscribe.unsubscribe.bind(stores.unsubscribe),
      savePreferences: stores.unsubscribe.savePreferences.bind(stores.unsubscribe),
      leaveTopic: async () => {
        throw new Error('store unavailable');
      },
    };

    // Act
    const first = await unsubscribeByLink(depsOf(stores, failing), SECRET, TOKEN).catch((e: Error) => e);
    const between = await stateOf(stores);
    await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);

    // Assess
    expect(first).toBeInstanceOf(Error);
    expect(between).toEqual({ is_subscribed: true, topic: undefined, logs: [] });
    expect(await stateOf(stores)).toEqual({
      is_subscribed: true,
      topic: false,
      logs: [[LINK_UNSUBSCRIBE_LOG_ID, SENT_STATUS.unsubscribed]],
    });
  });

  it('an e-mail without a topic keeps the whole unsubscribe', async () => {
    const stores = await seeded();
    stores.sentEmails.data.sentEmails.set(sentEmailKey(CLIENT, EMAIL_ID), {
      ...structuredClone(email),
      topic_id: undefined,
    });

    await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);

    expect(await stateOf(stores)).toMatchObject({ is_subscribed: false, topic: undefined });
  });
});
