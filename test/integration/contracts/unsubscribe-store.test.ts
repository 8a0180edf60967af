import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { keys } from '../../../shared/adapters/dynamo/keys.js';
import type { RequestUsage } from '../../../shared/adapters/dynamo/request-counter.js';
import { FixedClock } from '../../../shared/adapters/memory/client-stores.js';
import { sentEmailKey } from '../../../shared/adapters/memory/engine-data.js';
import { memoryStores } from '../../../shared/adapters/memory/memory-stores.js';
import { createContainer, type Container } from '../../../shared/composition/container.js';
import type { Ports } from '../../../shared/composition/port-registry.js';
import { contactStore } from '../../../shared/composition/providers/contact-store.js';
import { sentEmailStore } from '../../../shared/composition/providers/sent-email-store.js';
import { tableOf } from '../../../shared/composition/providers/table.js';
import { unsubscribeStore } from '../../../shared/composition/providers/unsubscribe-store.js';
import { loadConfig } from '../../../shared/config.js';
import { signLinkToken } from '../../../shared/domain/links/link-token.js';
import { LINK_UNSUBSCRIBE_LOG_ID, unsubscribeByLink } from '../../../shared/domain/links/public-links.js';
import { SENT_STATUS, type SentEmailRecord } from '../../../shared/domain/sent-emails/sent-email-record.js';
import { contactRecord } from '../../unit/support/contact-fixtures.js';
import { AT, freshClientId, LATER } from './support.js';

const SECRET = 'a-local-link-secret-of-at-least-32-bytes';
const SENT_AT = '2026-01-15T09:00:00.000Z';

type Stores = Pick<Ports, 'contacts' | 'sentEmails' | 'unsubscribe'>;

/** What a suite needs of an adapter set: its stores, a way to seed a sent e-mail, and (DynamoDB) the requests sent. */
interface Adapter {
  stores: Stores;
  seedEmail(email: SentEmailRecord): Promise<void>;
  /** The DynamoDB requests `fn` sent, by command; undefined in memory. */
  measure<T>(fn: () => Promise<T>): Promise<{ result: T; usage?: RequestUsage['by_command'] }>;
  /** The raw contact item (DynamoDB) or record (memory): proves a cancelled write created no bare item. */
  rawContact(clientId: number, contactId: number): Promise<unknown>;
}

function memoryAdapter(): Adapter {
  const stores = memoryStores();
  return {
    stores,
    seedEmail: async (email) =>
      void stores.sentEmails.data.sentEmails.set(sentEmailKey(email.client_id, email.id), structuredClone(email)),
    measure: async (fn) => ({ result: await fn() }),
    rawContact: async (clientId, contactId) => stores.contacts.contacts.get(`${clientId}\u0000${contactId}`),
  };
}

let dynamo: Container | undefined;

function dynamoAdapter(): Adapter {
  dynamo ??= createContainer({
    config: loadConfig({
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
      TABLE_NAME: inject('tableName'),
      AWS_REGION: process.env['AWS_REGION'] ?? 'us-east-1',
    }),
  });
  const container = dynamo;
  const { db, tableName } = tableOf(container);
  return {
    stores: container.resolve([contactStore, sentEmailStore, unsubscribeStore]),
    // The sender's claim is the e-mail's only writer; the suite writes the record as the claim leaves it.
    seedEmail: async (email) =>
      void (await db.send(
        new PutCommand({ TableName: tableName, Item: { ...keys.sentEmail(email.client_id, email.id), ...email } }),
      )),
    measure: async (fn) => {
      const { result, usage } = await container.requestCounter.measure(fn);
      return { result, usage: usage.by_command };
    },
    rawContact: async (clientId, contactId) =>
      (
        await db.send(
          new GetCommand({ TableName: tableName, Key: keys.contact(clientId, contactId), ConsistentRead: true }),
        )
      ).Item,
  };
}

const ADAPTERS: [string, () => Adapter][] = [
  ['memory', memoryAdapter],
  ['dynamodb', dynamoAdapter],
];

let nextId = 1;

/** A fresh client with Ann (subscribed unless `fields` say otherwise) and one e-mail to her, with its queued log. */
async function mailedContact(adapter: Adapter, fields: Parameters<typeof contactRecord>[0] = {}) {
  const clientId = freshClientId();
  const contactId = nextId++;
  await adapter.stores.contacts.create(
    contactRecord({
      id: contactId,
      client_id: clientId,
      email: `ann-${contactId}@example.com`,
      client_contact_id: undefined,
      ...fields,
    }),
  );
  const email: SentEmailRecord = {
    id: `00000000-0000-8000-8000-${contactId.toString(16).padStart(12, '0')}`,
    client_id: clientId,
    contact_id: contactId,
    execution_id: contactId,
    workflow_id: 1,
    email_template_id: 1,
    email_template_name: 'Welcome',
    from_email: '"Acme" <hello@acme.test>',
    to_email: `ann-${contactId}@example.com`,
    subject: 'Welcome, Ann',
    html_body: '<p>Hi</p>',
    text_body: 'Hi',
    browser_url: 'https://els.test/v/x',
    status: SENT_STATUS.delivered,
    status_updated_at: SENT_AT,
    created_at: SENT_AT,
  };
  await adapter.seedEmail(email);
  const queued = { id: `log-${contactId}`, created_at: SENT_AT, status: SENT_STATUS.queued };
  await adapter.stores.sentEmails.addLog(clientId, email.id, queued);
  const token = signLinkToken(SECRET, { purpose: 'u', clientId, sentEmailId: email.id });
  const state = async () => ({
    contact: await adapter.stores.contacts.get(clientId, contactId),
    logs: (await adapter.stores.sentEmails.getWithLogs(clientId, email.id))!.logs,
  });
  return { clientId, contactId, email, queued, token, state };
}

const linkLog = (at: string) => ({ id: LINK_UNSUBSCRIBE_LOG_ID, created_at: at, status: SENT_STATUS.unsubscribed });
/** The log as the unsubscribe's own transaction stores it: the day counters count `unsubscribed_link` from it. */
const countedLinkLog = (at: string) => ({ ...linkLog(at), workflow_id: 1, unsubscribed_by: 'link' });
const deps = (stores: Stores, now: string) => ({ ...stores, clock: new FixedClock(new Date(now)) });

describe.each(ADAPTERS)('UnsubscribeStore contract (%s)', (name, makeAdapter) => {
  const usage = (expected: Record<string, number>) => (name === 'dynamodb' ? expected : undefined);

  it('unsubscribes a subscribed contact and adds the log in one write', async () => {
    // Prepare
    const adapter = makeAdapter();
    const mail = await mailedContact(adapter);

    // Act
    const { result, usage: used } = await adapter.measure(() =>
      adapter.stores.unsubscribe.unsubscribe({
        clientId: mail.clientId,
        contactId: mail.contactId,
        sentEmailId: mail.email.id,
        workflowId: mail.email.workflow_id,
        reason: 'unsubscribe_link',
        log: linkLog(AT),
      }),
    );

    // Assess
    expect(result).toEqual({ status: 'unsubscribed' });
    expect(used).toEqual(usage({ TransactWriteItemsCommand: 1 }));
    const { contact, logs } = await mail.state();
    expect(contact).toMatchObject({
      is_subscribed: false,
      unsubscribe_reason: 'unsubscribe_link',
      unsubscribed_at: AT,
      updated_at: AT,
    });
    expect(logs).toEqual([mail.queued, countedLinkLog(AT)]);
  });

  it('leaves neither write when the transaction is cancelled: a contact unsubscribed otherwise keeps its reason', async () => {
    // Prepare
    const adapter = makeAdapter();
    const mail = await mailedContact(adapter, {
      is_subscribed: false,
      unsubscribe_reason: 'hard_bounce',
      unsubscribed_at: AT,
      updated_at: AT,
    });
    const before = await mail.state();

    // Act
    const outcome = await adapter.stores.unsubscribe.unsubscribe({
      clientId: mail.clientId,
      contactId: mail.contactId,
      sentEmailId: mail.email.id,
      workflowId: mail.email.workflow_id,
      reason: 'unsubscribe_link',
      log: linkLog(LATER),
    });

    // Assess
    expect(outcome).toEqual({
      status: 'not_subscribed',
      contact: { is_subscribed: false, unsubscribe_reason: 'hard_bounce', unsubscribed_at: AT },
    });
    expect(await mail.state()).toEqual(before);
  });

  it('leaves neither write when the contact is gone, and creates no bare contact item', async () => {
    // Prepare
    const adapter = makeAdapter();
    const mail = await mailedContact(adapter);
    const missingId = mail.contactId + 1_000_000;

    // Act
    const outcome = await adapter.stores.unsubscribe.unsubscribe({
      clientId: mail.clientId,
      contactId: missingId,
      sentEmailId: mail.email.id,
      workflowId: mail.email.workflow_id,
      reason: 'unsubscribe_link',
      log: linkLog(LATER),
    });

    // Assess
    expect(outcome).toEqual({ status: 'not_subscribed', contact: undefined });
    expect(await adapter.rawContact(mail.clientId, missingId)).toBeUndefined();
    expect((await mail.state()).logs).toEqual([mail.queued]);
  });

  it('a first POST costs the reads and one transaction; the same POST again reads and writes nothing', async () => {
    // Prepare
    const adapter = makeAdapter();
    const mail = await mailedContact(adapter);

    // Act
    const first = await adapter.measure(() => unsubscribeByLink(deps(adapter.stores, AT), SECRET, mail.token));
    const after = await mail.state();
    const again = await adapter.measure(() => unsubscribeByLink(deps(adapter.stores, LATER), SECRET, mail.token));

    // Assess
    expect(first.result).toEqual(mail.email);
    expect(first.usage).toEqual(usage({ QueryCommand: 1, GetItemCommand: 1, TransactWriteItemsCommand: 1 }));
    expect(after.contact).toMatchObject({
      is_subscribed: false,
      unsubscribe_reason: 'unsubscribe_link',
      unsubscribed_at: AT,
    });
    expect(after.logs).toEqual([mail.queued, countedLinkLog(AT)]);
    expect(again.result).toEqual(mail.email);
    expect(again.usage).toEqual(usage({ QueryCommand: 1, GetItemCommand: 1 }));
    expect(await mail.state()).toEqual(after);
  });

  it('repairs the partial state of the two-write version (contact unsubscribed, no log) on the next POST, once', async () => {
    // Prepare: the contact write of a POST at AT landed, its log did not
    const adapter = makeAdapter();
    const mail = await mailedContact(adapter);
    await adapter.stores.contacts.updateSubscription(mail.clientId, mail.contactId, {
      is_subscribed: false,
      unsubscribe_reason: 'unsubscribe_link',
      at: AT,
    });
    const halfDone = await mail.state();

    // Act
    const repair = await adapter.measure(() => unsubscribeByLink(deps(adapter.stores, LATER), SECRET, mail.token));
    const repeat = await adapter.measure(() => unsubscribeByLink(deps(adapter.stores, LATER), SECRET, mail.token));

    // Assess: the log, dated at the first POST; the contact untouched; the repeat writes nothing
    expect(repair.usage).toEqual(usage({ QueryCommand: 1, GetItemCommand: 1, PutItemCommand: 1 }));
    expect(repeat.usage).toEqual(usage({ QueryCommand: 1, GetItemCommand: 1 }));
    const { contact, logs } = await mail.state();
    expect(contact).toEqual(halfDone.contact);
    expect(logs).toEqual([mail.queued, linkLog(AT)]);
  });

  it('leaves one topic in one write: topic_<id> false and the log, is_subscribed untouched; again: nothing', async () => {
    // Prepare
    const adapter = makeAdapter();
    const mail = await mailedContact(adapter);
    const write = {
      clientId: mail.clientId,
      contactId: mail.contactId,
      sentEmailId: mail.email.id,
      workflowId: 1,
      topicId: 4,
      log: linkLog(AT),
    };

    // Act
    const first = await adapter.measure(() => adapter.stores.unsubscribe.leaveTopic(write));
    const again = await adapter.stores.unsubscribe.leaveTopic({ ...write, log: linkLog(LATER) });

    // Assess
    expect(first.result).toBe('left');
    expect(first.usage).toEqual(usage({ TransactWriteItemsCommand: 1 }));
    expect(again).toBe('not_in_topic');
    const { contact, logs } = await mail.state();
    expect(contact).toMatchObject({ is_subscribed: true, topic_4: false, updated_at: AT });
    expect(logs.map((l) => l.created_at).sort()).toEqual([SENT_AT, AT]);
  });

  it('leaves no topic write for a contact that is gone, and creates no bare contact item', async () => {
    const adapter = makeAdapter();
    const mail = await mailedContact(adapter);
    const write = {
      clientId: mail.clientId,
      contactId: mail.contactId + 10_000,
      sentEmailId: mail.email.id,
      workflowId: 1,
      topicId: 4,
      log: linkLog(AT),
    };

    expect(await adapter.stores.unsubscribe.leaveTopic(write)).toBe('gone');
    expect(await adapter.rawContact(mail.clientId, mail.contactId + 10_000)).toBeUndefined();
    expect((await mail.state()).logs).toEqual([mail.queued]);
  });
});
