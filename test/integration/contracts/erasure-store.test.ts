import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { DynamoErasureStore } from '../../../shared/adapters/dynamo/erasure-store.js';
import { DynamoWebhookOutbox } from '../../../shared/adapters/dynamo/webhook-outbox.js';
import { MemoryWebhookStore } from '../../../shared/adapters/memory/webhook-store.js';
import { keys } from '../../../shared/adapters/dynamo/keys.js';
import { createContainer } from '../../../shared/composition/container.js';
import { tableOf } from '../../../shared/composition/providers/table.js';
import { SUPPRESSED, SuppressedAddress } from '../../../shared/domain/contacts/contact-store.js';
import { EXECUTION_STATUS } from '../../../shared/domain/executions/execution-record.js';
import { SENT_STATUS } from '../../../shared/domain/sent-emails/sent-email-record.js';
import { loadConfig } from '../../../shared/config.js';
import { contactRecord } from '../../unit/support/contact-fixtures.js';
import {
  createContact,
  ENGINE_ADAPTERS,
  eventRecord,
  executionRecord,
  nextRecordId,
  reservation,
} from './engine-support.js';
import { freshClientId, LATER } from './support.js';

/**
 * The erasure store on DynamoDB Local (it has no memory adapter: docs/decisions/0058-contact-erasure.md "Contact erasure"). A contact with
 * an event, two executions (one queued) and a sent e-mail with traced logs is found through gsi2, scrubbed and
 * replaced by its tombstone.
 */
const container = () =>
  createContainer({
    config: loadConfig({
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
      TABLE_NAME: inject('tableName'),
      AWS_REGION: process.env['AWS_REGION'] ?? 'us-east-1',
    }),
  });

async function mailedContact() {
  const stores = ENGINE_ADAPTERS.find(([name]) => name === 'dynamodb')![1]();
  const { db, tableName } = tableOf(container());
  const erasure = new DynamoErasureStore(db, tableName);
  const clientId = freshClientId();
  const contact = await createContact(stores, clientId, { client_contact_id: `crm-${nextRecordId()}` });
  const event = eventRecord(clientId, {
    email: contact.email,
    metadata: { plan: 'pro' },
    idempotency_key: `signup-${contact.email}`,
  });
  const queued = executionRecord(clientId, contact.id, {
    event_id: event.id,
    event: { type: 'signup', ts: event.ts, metadata: { plan: 'pro' } },
  });
  const sending = executionRecord(clientId, contact.id, { event_id: event.id, workflow_id: 3 });
  await stores.events.insert(event);
  const committed = await stores.processing.commit({
    event: {
      ...event,
      queue_status: 'processed',
      contact_id: contact.id,
      contact: { email: contact.email, first_name: 'Ann', last_name: null },
      execution_ids: [queued.id, sending.id],
      processed_at: LATER,
    },
    executions: [queued, sending],
  });
  expect(committed).toBe('committed');
  const r = reservation(sending);
  r.sentEmail.to_email = contact.email;
  r.sentEmail.provider_message_id = `ses-${sending.id}-${clientId}`;
  expect(await stores.delivery.claim(r)).toBe('claimed');
  const message = keys.providerMessage(r.sentEmail.provider_message_id);
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...message,
        client_id: clientId,
        sent_email_id: r.sentEmail.id,
        contact_id: contact.id,
        created_at: LATER,
      },
    }),
  );
  const open = {
    id: `open-${sending.id}`,
    created_at: LATER,
    status: SENT_STATUS.opened,
    ip_address: '203.0.113.9',
    user_agent: 'Mozilla/5.0',
    url: 'https://acme.test/?u=ann',
    is_bot: false,
  };
  const bounce = {
    id: `bounce-${sending.id}`,
    created_at: LATER,
    status: SENT_STATUS.bounced,
    detail: `smtp; 550 5.1.1 <${contact.email.toUpperCase()}>: user unknown`,
  };
  await stores.sentEmails.addLog(clientId, r.sentEmail.id, open);
  await stores.sentEmails.addLog(clientId, r.sentEmail.id, bounce);
  const item = async (key: { pk: string; sk: string }) =>
    (await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
  // The claim stores the bodies compressed (sent-email-item.ts): the erasure must remove them as such.
  expect(await item(keys.sentEmail(clientId, r.sentEmail.id))).toHaveProperty('bodies_br');
  return {
    stores,
    erasure,
    clientId,
    contact,
    event,
    queued,
    sending,
    sentEmailId: r.sentEmail.id,
    messageId: r.sentEmail.provider_message_id,
    open,
    bounce,
    item,
  };
}

describe('ErasureStore (dynamodb)', () => {
  it("finds the contact's event, executions and sent e-mail through gsi2, and no other contact's", async () => {
    // Prepare
    const t = await mailedContact();
    const other = await createContact(t.stores, t.clientId);

    // Act
    const history = await t.erasure.history(t.clientId, t.contact.id);

    // Assess
    expect(history.events).toEqual([t.event.id]);
    expect(history.executions.sort((a, b) => a - b)).toEqual([t.queued.id, t.sending.id].sort((a, b) => a - b));
    expect(history.sentEmails).toEqual([t.sentEmailId]);
    expect(await t.erasure.history(t.clientId, other.id)).toEqual({
      events: [],
      executions: [],
      sentEmails: [],
      webhookMessages: [],
    });
    expect(await t.erasure.history(freshClientId(), t.contact.id)).toEqual({
      events: [],
      executions: [],
      sentEmails: [],
      webhookMessages: [],
    });
  });

  it('strips every personal datum, cancels the queued execution, keeps ids and statuses; a second pass changes nothing more', async () => {
    // Prepare
    const t = await mailedContact();
    const history = await t.erasure.history(t.clientId, t.contact.id);

    // Act
    const scrub = await t.erasure.scrubHistory(t.clientId, t.contact.email, history, LATER);
    const again = await t.erasure.scrubHistory(t.clientId, t.contact.email, history, LATER);

    // Assess
    expect(scrub).toEqual({
      events: 1,
      executions: 1,
      executionsCancelled: 1,
      sentEmails: 1,
      logs: 2,
      webhookMessages: 0,
      webhookAttempts: 0,
    });
    expect(again).toMatchObject({ executionsCancelled: 0, logs: 0 });
    const event = await t.item(keys.event(t.clientId, t.event.id));
    expect(event).toMatchObject({
      id: t.event.id,
      type: 'signup',
      queue_status: 'processed',
      contact_id: t.contact.id,
      payload: {},
      erased_at: LATER,
    });
    for (const gone of ['email', 'uid', 'metadata', 'contact', 'idempotency_key'])
      expect(event).not.toHaveProperty(gone);
    expect(await t.item(keys.execution(t.clientId, t.queued.id))).toMatchObject({
      status: EXECUTION_STATUS.cancelled,
      reason: 'contact_erased',
    });
    expect(await t.item(keys.execution(t.clientId, t.queued.id))).not.toHaveProperty('event');
    expect(await t.item(keys.execution(t.clientId, t.sending.id))).toMatchObject({
      status: EXECUTION_STATUS.executing,
    });
    const email = await t.stores.sentEmails.getWithLogs(t.clientId, t.sentEmailId);
    expect(email!.email).toMatchObject({
      id: t.sentEmailId,
      to_email: '',
      subject: '',
      html_body: '',
      text_body: '',
      status: SENT_STATUS.queued,
    });
    // The compressed bodies go with the item's strings, not only from what the store reads back.
    const stored = await t.item(keys.sentEmail(t.clientId, t.sentEmailId));
    expect(stored).not.toHaveProperty('bodies_br');
    expect(JSON.stringify(stored)).not.toContain(t.contact.email);
    const logs = Object.fromEntries(email!.logs.map((l) => [l.id, l]));
    expect(logs[t.open.id]).toEqual({ id: t.open.id, created_at: LATER, status: SENT_STATUS.opened, is_bot: false });
    expect(logs[t.bounce.id]!.detail).toBe('smtp; 550 5.1.1 <[erased]>: user unknown');
    expect(JSON.stringify(email)).not.toContain(t.contact.email);
    // A late open or click finds no message: neither by its provider id nor by its tags.
    expect(await t.stores.tracking.findMessage(t.messageId)).toBeUndefined();
    expect(await t.stores.tracking.findTaggedMessage(t.clientId, t.sentEmailId, t.messageId)).toBeUndefined();
  });

  it("finds the contact's webhook messages (gsi2) and their attempts, keeps ids only in them and clears the attempts' answers, once", async () => {
    // Prepare: a message about the contact and one about another, each with an attempt whose receiver echoed it
    const t = await mailedContact();
    const other = await createContact(t.stores, t.clientId);
    const { db, tableName } = tableOf(container());
    const outbox = new DynamoWebhookOutbox(db, tableName, new MemoryWebhookStore());
    const body = (contactId: number, email: string) =>
      JSON.stringify({
        type: 'contact.unsubscribed',
        id: `msg_${contactId}`,
        created_at: LATER,
        data: { contact: { id: contactId, email, first_name: 'Ann' }, reason: 'api' },
      });
    const message = (contactId: number, email: string) => ({
      id: `msg_${String(contactId).padStart(32, '0')}`,
      client_id: t.clientId,
      type: 'contact.unsubscribed' as const,
      created_at: LATER,
      payload: body(contactId, email),
      contact_id: contactId,
    });
    const ours = message(t.contact.id, t.contact.email);
    const theirs = message(other.id, other.email);
    await outbox.putMessages([ours, theirs]);
    const attempt = (m: typeof ours, id: string) => ({
      id,
      client_id: t.clientId,
      webhook_id: 1,
      message_id: m.id,
      event_type: m.type,
      attempt: 1,
      replay: false,
      attempted_at: LATER,
      succeeded: true,
      status_code: 200,
      duration_ms: 3,
      response_body: `{"echo":${m.payload}}`,
      error: null,
      next_attempt_at: null,
    });
    await outbox.recordAttempt(attempt(ours, `att_${nextRecordId()}a`), { kind: 'none' });
    await outbox.recordAttempt(attempt(theirs, `att_${nextRecordId()}b`), { kind: 'none' });

    // Act
    const history = await t.erasure.history(t.clientId, t.contact.id);
    const scrub = await t.erasure.scrubHistory(t.clientId, t.contact.email, history, LATER);
    const again = await t.erasure.scrubHistory(
      t.clientId,
      t.contact.email,
      { events: [], executions: [], sentEmails: [], webhookMessages: history.webhookMessages },
      LATER,
    );

    // Assess
    expect(history.webhookMessages).toEqual([ours.id]);
    expect(scrub).toMatchObject({ webhookMessages: 1, webhookAttempts: 1 });
    expect(again).toMatchObject({ webhookMessages: 0, webhookAttempts: 0 });
    const stored = await outbox.message(t.clientId, ours.id);
    expect(JSON.parse(stored!.payload)).toEqual({
      type: 'contact.unsubscribed',
      id: `msg_${t.contact.id}`,
      created_at: LATER,
      data: { contact: { id: t.contact.id }, erased: true },
    });
    expect(stored!.erased_at).toBe(LATER);
    const page = await outbox.attempts(t.clientId, 1, { limit: 10 });
    expect(page.attempts.find((a) => a.message_id === ours.id)!.response_body).toBeNull();
    // The other contact's message and attempt are whole.
    expect((await outbox.message(t.clientId, theirs.id))!.payload).toBe(theirs.payload);
    expect(page.attempts.find((a) => a.message_id === theirs.id)!.response_body).toContain(other.email);
  });

  it('replaces the contact by its tombstone and frees its locks; a bounced address stays as a marker', async () => {
    // Prepare
    const t = await mailedContact();
    const plain = await createContact(t.stores, t.clientId, { client_contact_id: `crm-${nextRecordId()}` });
    const bounced = { ...t.contact, is_subscribed: false, unsubscribe_reason: 'hard_bounce' };

    // Act
    const stale = await t.erasure.replaceByTombstone(
      { ...t.contact, updated_at: '1999-01-01T00:00:00.000Z' },
      undefined,
      LATER,
    );
    const erasedPlain = await t.erasure.replaceByTombstone(plain, undefined, LATER);
    const erasedBounced = await t.erasure.replaceByTombstone(bounced, 'hard_bounce', LATER);

    // Assess
    expect([stale, erasedPlain, erasedBounced]).toEqual(['changed', 'erased', 'erased']);
    expect(await t.stores.contacts.get(t.clientId, t.contact.id)).toBeUndefined();
    expect(await t.erasure.wasErased(t.clientId, t.contact.id)).toBe(true);
    expect(await t.erasure.wasErased(t.clientId, t.queued.id)).toBe(false);
    expect(await t.item(keys.erasedContact(t.clientId, t.contact.id))).toEqual({
      ...keys.erasedContact(t.clientId, t.contact.id),
      client_id: t.clientId,
      contact_id: t.contact.id,
      erased_at: LATER,
    });
    expect(await t.item(keys.uidLock(t.clientId, t.contact.client_contact_id!))).toBeUndefined();
    expect(await t.item(keys.emailLock(t.clientId, t.contact.email))).toEqual({
      ...keys.emailLock(t.clientId, t.contact.email),
      kind: 'email',
      suppressed: 'hard_bounce',
      erased_at: LATER,
    });
    expect(await t.stores.contacts.findIdsByEmail(t.clientId, [t.contact.email, plain.email])).toEqual(
      new Map([[t.contact.email, SUPPRESSED]]),
    );
    await expect(
      t.stores.contacts.create(
        contactRecord({
          id: nextRecordId(),
          client_id: t.clientId,
          email: t.contact.email,
          client_contact_id: undefined,
        }),
      ),
    ).rejects.toBeInstanceOf(SuppressedAddress);
    await expect(
      t.stores.contacts.create(
        contactRecord({
          id: nextRecordId(),
          client_id: t.clientId,
          email: plain.email,
          client_contact_id: plain.client_contact_id,
        }),
      ),
    ).resolves.toBeUndefined();
  });
});
