import { afterEach, describe, expect, it, vi } from 'vitest';
import { sentEmailKey } from '../../../../shared/adapters/memory/engine-data.js';
import { memoryStores, type MemoryStores } from '../../../../shared/adapters/memory/memory-stores.js';
import { signLinkToken } from '../../../../shared/domain/links/link-token.js';
import {
  LINK_UNSUBSCRIBE_LOG_ID,
  LINK_UNSUBSCRIBE_REASON,
  unsubscribeByLink,
} from '../../../../shared/domain/links/public-links.js';
import type { UnsubscribeStore } from '../../../../shared/domain/links/unsubscribe-store.js';
import { SENT_STATUS, type SentEmailRecord } from '../../../../shared/domain/sent-emails/sent-email-record.js';
import { contactRecord } from '../../support/contact-fixtures.js';

const SECRET = 'a-local-link-secret-of-at-least-32-bytes';
const CLIENT = 7;
const CONTACT = 42;
const EMAIL_ID = '00000000-0000-8000-8000-000000000001';
const SENT_AT = '2026-01-15T09:00:00.000Z';
/** The memory clock's time (FixedClock). */
const NOW = '2026-01-15T10:00:00.000Z';
const LATER = '2026-01-15T10:05:00.000Z';
const TOKEN = signLinkToken(SECRET, { purpose: 'u', clientId: CLIENT, sentEmailId: EMAIL_ID });

const queuedLog = { id: 'log-queued', created_at: SENT_AT, status: SENT_STATUS.queued };
const linkLog = (at: string) => ({ id: LINK_UNSUBSCRIBE_LOG_ID, created_at: at, status: SENT_STATUS.unsubscribed });
/** The log as the unsubscribe's own transaction stores it: what the day counters count `unsubscribed_link` from. */
const countedLinkLog = (at: string) => ({ ...linkLog(at), workflow_id: 1, unsubscribed_by: 'link' });

const email: SentEmailRecord = {
  id: EMAIL_ID,
  client_id: CLIENT,
  contact_id: CONTACT,
  execution_id: 1,
  workflow_id: 1,
  email_template_id: 1,
  email_template_name: 'Welcome',
  from_email: '"Acme" <hello@acme.test>',
  to_email: 'ann@example.com',
  subject: 'Welcome, Ann',
  html_body: '<p>Hi</p>',
  text_body: 'Hi',
  browser_url: 'https://els.test/v/x',
  status: SENT_STATUS.delivered,
  status_updated_at: SENT_AT,
  created_at: SENT_AT,
};

/** Memory stores holding Ann (subscribed unless `contact` says otherwise) and one e-mail to her with its queued log. */
async function seeded(contact: Parameters<typeof contactRecord>[0] = {}) {
  const stores = memoryStores();
  await stores.contacts.create(contactRecord({ id: CONTACT, client_id: CLIENT, ...contact }));
  stores.sentEmails.data.sentEmails.set(sentEmailKey(CLIENT, EMAIL_ID), structuredClone(email));
  await stores.sentEmails.addLog(CLIENT, EMAIL_ID, queuedLog);
  return stores;
}

/** Every write the domain can send, counted (they still write). */
function spyWrites(stores: MemoryStores) {
  return {
    transactions: vi.spyOn(stores.unsubscribe, 'unsubscribe'),
    logs: vi.spyOn(stores.sentEmails, 'addLog'),
    contactUpdates: vi.spyOn(stores.contacts, 'updateSubscription'),
  };
}

const depsOf = (stores: MemoryStores, unsubscribe: UnsubscribeStore = stores.unsubscribe) => ({
  sentEmails: stores.sentEmails,
  contacts: stores.contacts,
  clock: stores.clock,
  unsubscribe,
});

async function stateOf(stores: MemoryStores) {
  const contact = await stores.contacts.get(CLIENT, CONTACT);
  const logs = (await stores.sentEmails.getWithLogs(CLIENT, EMAIL_ID))!.logs;
  return { contact, logs };
}

/**
 * A store that fails the way two separate writes can: `instead` of writing, or `after-contact` / `after-log` — one
 * write landed, the other did not (what the two-write version could leave behind).
 */
function failingStore(stores: MemoryStores, when: 'instead' | 'after-contact' | 'after-log'): UnsubscribeStore {
  return {
    async unsubscribe(write) {
      if (when === 'after-contact') {
        await stores.contacts.updateSubscription(write.clientId, write.contactId, {
          is_subscribed: false,
          unsubscribe_reason: write.reason,
          at: write.log.created_at,
        });
      }
      if (when === 'after-log') await stores.sentEmails.addLog(write.clientId, write.sentEmailId, write.log);
      throw new Error('store unavailable');
    },
    async leaveTopic() {
      throw new Error('store unavailable');
    },
    async savePreferences() {
      throw new Error('store unavailable');
    },
  };
}

afterEach(() => vi.restoreAllMocks());

describe('unsubscribeByLink', () => {
  it('unsubscribes a subscribed contact and logs the e-mail with one store write', async () => {
    // Prepare
    const stores = await seeded();
    const writes = spyWrites(stores);

    // Act
    const answer = await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);

    // Assess
    expect(answer).toEqual(email);
    expect(writes.transactions).toHaveBeenCalledTimes(1);
    expect(writes.transactions).toHaveBeenCalledWith({
      clientId: CLIENT,
      contactId: CONTACT,
      sentEmailId: EMAIL_ID,
      workflowId: email.workflow_id,
      reason: LINK_UNSUBSCRIBE_REASON,
      log: linkLog(NOW),
    });
    expect(writes.logs).not.toHaveBeenCalled();
    expect(writes.contactUpdates).not.toHaveBeenCalled();
    const { contact, logs } = await stateOf(stores);
    expect(contact).toMatchObject({
      is_subscribed: false,
      unsubscribe_reason: 'unsubscribe_link',
      unsubscribed_at: NOW,
      updated_at: NOW,
    });
    expect(logs).toEqual([queuedLog, countedLinkLog(NOW)]);
  });

  it("counts the unsubscribe once, on the e-mail's workflow, from the log that says it came by the link", async () => {
    const stores = await seeded();

    await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);
    await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);

    const { logs } = await stateOf(stores);
    expect(logs.at(-1)).toMatchObject({ unsubscribed_by: 'link', workflow_id: email.workflow_id });
    expect([...stores.stats.workflowRows.values()].map((r) => [r.workflowId, r.counts.unsubscribed_link])).toEqual([
      [email.workflow_id, 1],
    ]);
  });

  it('writes nothing when the same POST comes again', async () => {
    // Prepare
    const stores = await seeded();
    await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);
    const before = await stateOf(stores);
    stores.clock.advance(60_000);
    const writes = spyWrites(stores);

    // Act
    const answer = await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);

    // Assess
    expect(answer).toEqual(email);
    expect(writes.transactions).not.toHaveBeenCalled();
    expect(writes.logs).not.toHaveBeenCalled();
    expect(await stateOf(stores)).toEqual(before);
  });

  it.each([
    ['a tampered token', `${TOKEN.slice(0, -1)}${TOKEN.endsWith('A') ? 'B' : 'A'}`],
    ['a view-link token', signLinkToken(SECRET, { purpose: 'v', clientId: CLIENT, sentEmailId: EMAIL_ID })],
    ['another client', signLinkToken(SECRET, { purpose: 'u', clientId: CLIENT + 1, sentEmailId: EMAIL_ID })],
    [
      'an unknown e-mail',
      signLinkToken(SECRET, { purpose: 'u', clientId: CLIENT, sentEmailId: '00000000-0000-8000-8000-000000000009' }),
    ],
  ])('answers undefined for %s and writes nothing', async (_case, token) => {
    const stores = await seeded();
    const writes = spyWrites(stores);

    expect(await unsubscribeByLink(depsOf(stores), SECRET, token)).toBeUndefined();

    expect(writes.transactions).not.toHaveBeenCalled();
    expect(writes.logs).not.toHaveBeenCalled();
    expect((await stateOf(stores)).contact?.is_subscribed).toBe(true);
  });

  it('writes nothing for a contact that is gone (erased)', async () => {
    // Prepare
    const stores = await seeded();
    stores.contacts.contacts.clear();
    const writes = spyWrites(stores);

    // Act
    const answer = await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);

    // Assess
    expect(answer).toEqual(email);
    expect(writes.transactions).not.toHaveBeenCalled();
    expect(writes.logs).not.toHaveBeenCalled();
    expect((await stateOf(stores)).logs).toEqual([queuedLog]);
  });

  it('leaves neither write when the store fails instead of writing; the next POST writes both', async () => {
    // Prepare
    const stores = await seeded();

    // Act
    const failed = unsubscribeByLink(depsOf(stores, failingStore(stores, 'instead')), SECRET, TOKEN);

    // Assess
    await expect(failed).rejects.toThrow('store unavailable');
    expect(await stateOf(stores)).toMatchObject({ contact: { is_subscribed: true }, logs: [queuedLog] });
    stores.clock.advance(5 * 60_000);
    await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);
    const { contact, logs } = await stateOf(stores);
    expect(contact).toMatchObject({
      is_subscribed: false,
      unsubscribe_reason: 'unsubscribe_link',
      unsubscribed_at: LATER,
    });
    expect(logs).toEqual([queuedLog, countedLinkLog(LATER)]);
  });

  it('repairs a POST that failed between the writes (contact unsubscribed, no log): the log, dated at the first POST', async () => {
    // Prepare: the contact write landed, the log did not
    const stores = await seeded();
    await expect(
      unsubscribeByLink(depsOf(stores, failingStore(stores, 'after-contact')), SECRET, TOKEN),
    ).rejects.toThrow();
    const halfDone = await stateOf(stores);
    expect(halfDone).toMatchObject({ contact: { is_subscribed: false, unsubscribed_at: NOW }, logs: [queuedLog] });
    stores.clock.advance(5 * 60_000);
    const writes = spyWrites(stores);

    // Act
    await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);
    await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);

    // Assess: one log write, the contact untouched, and nothing more the second time
    expect(writes.logs).toHaveBeenCalledTimes(1);
    expect(writes.transactions).not.toHaveBeenCalled();
    const { contact, logs } = await stateOf(stores);
    expect(contact).toEqual(halfDone.contact);
    expect(logs).toEqual([queuedLog, linkLog(NOW)]);
  });

  it('repairs a POST that failed after its log only: the next POST unsubscribes the contact, with its own log', async () => {
    // Prepare: the log landed, the contact write did not
    const stores = await seeded();
    await expect(unsubscribeByLink(depsOf(stores, failingStore(stores, 'after-log')), SECRET, TOKEN)).rejects.toThrow();
    stores.clock.advance(5 * 60_000);

    // Act
    await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);

    // Assess
    const { contact, logs } = await stateOf(stores);
    expect(contact).toMatchObject({
      is_subscribed: false,
      unsubscribe_reason: 'unsubscribe_link',
      unsubscribed_at: LATER,
    });
    expect(logs).toEqual([queuedLog, linkLog(NOW), countedLinkLog(LATER)]);
  });

  it('keeps another unsubscribe reason (a hard bounce) and adds only the log, dated now', async () => {
    // Prepare
    const bouncedAt = '2026-01-15T09:30:00.000Z';
    const stores = await seeded({
      is_subscribed: false,
      unsubscribe_reason: 'hard_bounce',
      unsubscribed_at: bouncedAt,
      updated_at: bouncedAt,
    });
    const writes = spyWrites(stores);

    // Act
    await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);
    await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);

    // Assess
    expect(writes.transactions).not.toHaveBeenCalled();
    expect(writes.logs).toHaveBeenCalledTimes(1);
    const { contact, logs } = await stateOf(stores);
    expect(contact).toMatchObject({
      is_subscribed: false,
      unsubscribe_reason: 'hard_bounce',
      unsubscribed_at: bouncedAt,
      updated_at: bouncedAt,
    });
    expect(logs).toEqual([queuedLog, linkLog(NOW)]);
  });

  it('dates the log now when a link unsubscribed the contact before this e-mail was sent', async () => {
    // Prepare
    const earlier = '2026-01-10T08:00:00.000Z';
    const stores = await seeded({
      is_subscribed: false,
      unsubscribe_reason: 'unsubscribe_link',
      unsubscribed_at: earlier,
    });

    // Act
    await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);

    // Assess
    expect((await stateOf(stores)).logs).toEqual([queuedLog, linkLog(NOW)]);
  });

  it('writes nothing when the e-mail already has an unsubscribed log of the two-write version (random id)', async () => {
    // Prepare
    const stores = await seeded({
      is_subscribed: false,
      unsubscribe_reason: 'unsubscribe_link',
      unsubscribed_at: SENT_AT,
    });
    await stores.sentEmails.addLog(CLIENT, EMAIL_ID, {
      id: 'a5d3c0de-0000-4000-8000-000000000000',
      created_at: SENT_AT,
      status: SENT_STATUS.unsubscribed,
    });
    const writes = spyWrites(stores);

    // Act
    await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);

    // Assess
    expect(writes.transactions).not.toHaveBeenCalled();
    expect(writes.logs).not.toHaveBeenCalled();
  });

  it('two POSTs that both read the contact subscribed leave one log: the second decides on what its write found', async () => {
    // Prepare: the second POST read the e-mail and the contact before the first one wrote
    const stores = await seeded();
    const staleContact = (await stores.contacts.get(CLIENT, CONTACT))!;
    const staleEmail = (await stores.sentEmails.getWithLogs(CLIENT, EMAIL_ID))!;
    await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);
    vi.spyOn(stores.contacts, 'get').mockResolvedValueOnce(staleContact);
    vi.spyOn(stores.sentEmails, 'getWithLogs').mockResolvedValueOnce(staleEmail);
    stores.clock.advance(50);
    const writes = spyWrites(stores);

    // Act
    await unsubscribeByLink(depsOf(stores), SECRET, TOKEN);

    // Assess: its transaction found the contact unsubscribed (nothing written); the log it then put is the same item
    expect(await writes.transactions.mock.results[0]!.value).toEqual({
      status: 'not_subscribed',
      contact: { is_subscribed: false, unsubscribe_reason: 'unsubscribe_link', unsubscribed_at: NOW },
    });
    expect(writes.logs).toHaveBeenCalledWith(CLIENT, EMAIL_ID, linkLog(NOW));
    expect((await stateOf(stores)).logs).toEqual([queuedLog, linkLog(NOW)]);
    expect((await stateOf(stores)).contact).toMatchObject({ unsubscribed_at: NOW, updated_at: NOW });
  });
});
