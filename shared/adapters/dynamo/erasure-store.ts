import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { ContactRecord } from '../../domain/contacts/contact-store.js';
import type { ContactHistory, ErasureStore, HistoryScrub } from '../../domain/contacts/erase-contact.js';
import { EXECUTION_STATUS } from '../../domain/executions/execution-record.js';
import { batchGetItems } from './batch-get.js';
import { batchDeleteItems } from './batch-write.js';
import { segmentStateOf } from './membership-store.js';
import { BODIES_ATTRIBUTE } from './sent-email-item.js';
import { keys } from './keys.js';
import { queryAll } from './query-all.js';
import { DynamoRunStore } from './run-store.js';
import { TABLE_KEYS } from './table-definition.js';
import { sendTransaction } from './transactions.js';
import { contactsLeftUpdate } from './topic-counts.js';
import { leftTopicsOf } from '../../domain/topics/contact-topics.js';
import { erasedWebhookPayload } from '../../domain/webhooks/erased-payload.js';

const optionalItem = <T>(item: T | undefined): T[] => (item ? [item] : []);

/** Updates in flight at once while scrubbing a history: well under a partition's limits, bounded Lambda sockets. */
const PARALLEL_WRITES = 25;

/** What replaces a removed text that the views require (address, subject, bodies). */
const BLANK = '';

/**
 * The erasure's reads and writes (docs/decisions/0058-contact-erasure.md "Contact erasure"). Requests: 1 Query per MB of history keys
 * (gsi2, keys only); executions: 1 BatchGet per 100 and 1 UpdateItem each; events and sent e-mails: 1 UpdateItem each;
 * 1 DeleteItem per sent e-mail's provider message id; logs: 1 Query per sent e-mail and 1 UpdateItem per log that
 * holds an ip, user agent, url or the address; webhook messages: 1 BatchGet per 100, 1 UpdateItem each not yet erased
 * and 1 Query each (gsi2) for its attempts, 1 UpdateItem per attempt; then 1
 * transaction for the contact, its locks, its tombstone and (when it had left topics) the topics' counts.
 */
export class DynamoErasureStore implements ErasureStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async wasErased(clientId: number, contactId: number): Promise<boolean> {
    const out = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.erasedContact(clientId, contactId),
        ProjectionExpression: 'pk',
      }),
    );
    return out.Item !== undefined;
  }

  async history(clientId: number, contactId: number): Promise<ContactHistory> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      IndexName: TABLE_KEYS.gsi2.name,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': TABLE_KEYS.gsi2.partitionKey },
      ExpressionAttributeValues: { ':pk': keys.contactHistoryPk(clientId, contactId) },
    });
    const history: ContactHistory = { events: [], executions: [], sentEmails: [], webhookMessages: [] };
    for (const item of items) {
      // The table key names the record: EVENT#<client>#<id>, EXEC#<client>#<id>, SENT#<client>#<uuid>.
      const [kind, owner, id] = String(item['pk']).split('#');
      if (owner !== String(clientId) || id === undefined) continue;
      if (kind === 'EVENT') history.events.push(Number(id));
      else if (kind === 'EXEC') history.executions.push(Number(id));
      else if (kind === 'SENT') history.sentEmails.push(id);
      else if (kind === 'WHMSG') history.webhookMessages.push(id);
      // Listed only when the contact has runs (the history of a contact that never entered a journey is unchanged).
      else if (kind === 'RUN') history.runs = [...(history.runs ?? []), Number(id)];
    }
    return history;
  }

  async scrubHistory(clientId: number, email: string, history: ContactHistory, at: string): Promise<HistoryScrub> {
    const [executions, events, sent, webhooks] = await Promise.all([
      this.scrubExecutions(clientId, history.executions, at),
      inWaves(history.events, (id) => this.scrubEvent(clientId, id, at)),
      inWaves(history.sentEmails, (id) => this.scrubSentEmail(clientId, id, email, at)),
      this.scrubWebhookMessages(clientId, history.webhookMessages, at),
      // Journey runs in flight end (their next message finds them ended); each loses its trigger event and key value.
      new DynamoRunStore(this.db, this.tableName).eraseRuns(clientId, history.runs ?? [], at),
    ]);
    return {
      events: events.filter(Boolean).length,
      executions: executions.scrubbed,
      executionsCancelled: executions.cancelled,
      sentEmails: sent.filter((s) => s.found).length,
      logs: sent.reduce((sum, s) => sum + s.logs, 0),
      webhookMessages: webhooks.messages,
      webhookAttempts: webhooks.attempts,
    };
  }

  /**
   * Each stored webhook message about the contact keeps only ids, type, status and times (erased-payload.ts), so a
   * replay sends nothing personal; each of its attempts (found under the message in gsi2) loses the receiver's answer,
   * which may echo the body. Messages redacted by an earlier, interrupted erasure are not written again.
   */
  private async scrubWebhookMessages(
    clientId: number,
    ids: string[],
    at: string,
  ): Promise<{ messages: number; attempts: number }> {
    const items = await batchGetItems(
      this.db,
      this.tableName,
      ids.map((id) => keys.webhookMessage(clientId, id)),
      {
        attributes: ['id', 'payload', 'erased_at'],
      },
    );
    const outcomes = await inWaves(items, async (item) => {
      const id = String(item['id']);
      const redacted =
        item['erased_at'] === undefined && typeof item['payload'] === 'string'
          ? await this.isUpdated(keys.webhookMessage(clientId, id), {
              UpdateExpression: 'SET payload = :payload, erased_at = :at',
              ExpressionAttributeValues: { ':payload': erasedWebhookPayload(item['payload']), ':at': at },
            })
          : false;
      const attempts = await queryAll(this.db, {
        TableName: this.tableName,
        IndexName: TABLE_KEYS.gsi2.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': TABLE_KEYS.gsi2.partitionKey },
        ExpressionAttributeValues: { ':pk': keys.webhookMessage(clientId, id).pk },
      });
      const cleared = await inWaves(attempts, (attempt) =>
        this.isUpdated(
          { pk: String(attempt['pk']), sk: String(attempt['sk']) },
          {
            UpdateExpression: 'SET response_body = :none, erased_at = :at',
            ExpressionAttributeValues: { ':none': null, ':at': at },
            // An attempt cleared by the first pass is not written again by the second.
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(erased_at)',
          },
        ),
      );
      return { redacted, attempts: cleared.filter(Boolean).length };
    });
    return {
      messages: outcomes.filter((o) => o.redacted).length,
      attempts: outcomes.reduce((sum, o) => sum + o.attempts, 0),
    };
  }

  /**
   * The segment state read strongly (it names the member entries), then its item, the counters and every member
   * entry deleted in one BatchWriteItem wave. An evaluator that read the contact before its tombstone and writes
   * after this is undone by the contact's removal on the stream (evaluated again: gone, so it leaves everything).
   */
  async dropSegmentData(clientId: number, contactId: number): Promise<number> {
    const stateKey = keys.segmentState(clientId, contactId);
    const contactPk = keys.contact(clientId, contactId).pk;
    // The contact's engagement items (one per journey and broadcast it was sent or engaged with) are found by their
    // prefix in its partition, read with the state.
    const [out, engagement] = await Promise.all([
      this.db.send(new GetCommand({ TableName: this.tableName, Key: stateKey, ConsistentRead: true })),
      queryAll(this.db, {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :eng)',
        ExpressionAttributeValues: { ':pk': contactPk, ':eng': keys.contactEngagementSkPrefix },
        ProjectionExpression: 'pk, sk',
        ConsistentRead: true,
      }),
    ]);
    const state = segmentStateOf(out.Item);
    const members = Object.keys(state?.members ?? {}).map((id) => {
      const { pk, sk } = keys.segmentMember(clientId, Number(id), contactId);
      return { pk, sk };
    });
    const engagementKeys = engagement.map((item) => ({ pk: String(item['pk']), sk: String(item['sk']) }));
    await batchDeleteItems(this.db, this.tableName, [
      stateKey,
      keys.contactCounters(clientId, contactId),
      ...members,
      ...engagementKeys,
    ]);
    return members.length + (state ? 1 : 0) + engagementKeys.length;
  }

  async replaceByTombstone(
    contact: ContactRecord,
    markerReason: string | undefined,
    at: string,
  ): Promise<'erased' | 'changed'> {
    const c = contact.client_id;
    const ownedBy = { ConditionExpression: 'contact_id = :id', ExpressionAttributeValues: { ':id': contact.id } };
    const emailLock = keys.emailLock(c, contact.email);
    try {
      await sendTransaction(
        this.db,
        new TransactWriteCommand({
          TransactItems: [
            {
              // Only as read: a concurrent change (a new e-mail, uid) is decided again with the new record.
              Delete: {
                TableName: this.tableName,
                Key: keys.contact(c, contact.id),
                ConditionExpression: 'updated_at = :u',
                ExpressionAttributeValues: { ':u': contact.updated_at },
              },
            },
            markerReason
              ? {
                  Put: {
                    TableName: this.tableName,
                    Item: { ...emailLock, kind: 'email', suppressed: markerReason, erased_at: at },
                    ...ownedBy,
                  },
                }
              : { Delete: { TableName: this.tableName, Key: emailLock, ...ownedBy } },
            ...(contact.client_contact_id
              ? [{ Delete: { TableName: this.tableName, Key: keys.uidLock(c, contact.client_contact_id), ...ownedBy } }]
              : []),
            {
              Put: {
                TableName: this.tableName,
                Item: { ...keys.erasedContact(c, contact.id), client_id: c, contact_id: contact.id, erased_at: at },
              },
            },
            // The topics it had left count it no more: exact, as the contact is deleted only as read.
            ...optionalItem(
              contactsLeftUpdate(this.tableName, c, Object.fromEntries(leftTopicsOf(contact).map((id) => [id, -1]))),
            ),
          ],
        }),
      );
      return 'erased';
    } catch (error) {
      if (
        error instanceof TransactionCanceledException &&
        error.CancellationReasons?.some((r) => r.Code === 'ConditionalCheckFailed')
      ) {
        return 'changed';
      }
      throw error;
    }
  }

  /** Queued executions are cancelled; every execution loses the event data it copied for its template. */
  private async scrubExecutions(
    clientId: number,
    ids: number[],
    at: string,
  ): Promise<{ scrubbed: number; cancelled: number }> {
    const items = await batchGetItems(
      this.db,
      this.tableName,
      ids.map((id) => keys.execution(clientId, id)),
      {
        attributes: ['id', 'status', 'event'],
      },
    );
    const outcomes = await inWaves(items, async (item) => {
      const key = keys.execution(clientId, Number(item['id']));
      if (item['status'] === EXECUTION_STATUS.queued) {
        try {
          await this.db.send(
            new UpdateCommand({
              TableName: this.tableName,
              Key: key,
              UpdateExpression: 'SET #s = :cancelled, reason = :reason, updated_at = :at REMOVE #ev, gsi3pk, gsi3sk',
              ConditionExpression: '#s = :queued',
              ExpressionAttributeNames: { '#s': 'status', '#ev': 'event' },
              ExpressionAttributeValues: {
                ':cancelled': EXECUTION_STATUS.cancelled,
                ':queued': EXECUTION_STATUS.queued,
                ':reason': 'contact_erased',
                ':at': at,
              },
            }),
          );
          return 'cancelled' as const;
        } catch (error) {
          // The executor took it meanwhile: it will find the contact gone; only the event data is removed here.
          if (!(error instanceof ConditionalCheckFailedException)) throw error;
        }
      }
      if (item['event'] === undefined) return 'untouched' as const;
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: 'REMOVE #ev',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#ev': 'event' },
        }),
      );
      return 'scrubbed' as const;
    });
    const cancelled = outcomes.filter((o) => o === 'cancelled').length;
    return { scrubbed: cancelled + outcomes.filter((o) => o === 'scrubbed').length, cancelled };
  }

  /** The event keeps its id, type, times and statuses; the address, uid, payload, metadata and names go. */
  private async scrubEvent(clientId: number, eventId: number, at: string): Promise<boolean> {
    return this.isUpdated(keys.event(clientId, eventId), {
      UpdateExpression:
        'SET payload = :empty, erased_at = :at REMOVE email, uid, metadata, contact, external_id, idempotency_key',
      ExpressionAttributeValues: { ':empty': {}, ':at': at },
    });
  }

  /** The e-mail keeps its ids, template, status and times; the address, subject and bodies go, and its logs' traces. */
  private async scrubSentEmail(
    clientId: number,
    sentEmailId: string,
    email: string,
    at: string,
  ): Promise<{ found: boolean; logs: number }> {
    const before = await this.updateIfExists(keys.sentEmail(clientId, sentEmailId), {
      // The bodies end as blank strings whether they were stored compressed (sent-email-item.ts) or not.
      UpdateExpression:
        'SET to_email = :blank, subject = :blank, html_body = :blank, text_body = :blank, erased_at = :at REMOVE reply_to, #bodies',
      ExpressionAttributeNames: { '#bodies': BODIES_ATTRIBUTE },
      ExpressionAttributeValues: { ':blank': BLANK, ':at': at },
      // The old item comes back with the write (no read units): its provider message id, to forget below.
      ReturnValues: 'ALL_OLD',
    });
    const found = before !== undefined;
    const messageId = before?.['provider_message_id'];
    // Later SES notifications of this e-mail (an open, a click) then find no message and record no ip or user agent;
    // the tags fallback refuses an erased e-mail too (tracking-store.ts).
    if (typeof messageId === 'string')
      await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.providerMessage(messageId) }));
    const logs = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :log)',
      ProjectionExpression: 'pk, sk, ip_address, user_agent, #url, detail',
      ExpressionAttributeNames: { '#url': 'url' },
      ExpressionAttributeValues: { ':pk': keys.sentEmail(clientId, sentEmailId).pk, ':log': keys.sentEmailLogPrefix },
    });
    const traced = logs.filter(
      (log) =>
        log['ip_address'] !== undefined ||
        log['user_agent'] !== undefined ||
        log['url'] !== undefined ||
        mentions(log['detail'], email),
    );
    await inWaves(traced, (log) => {
      const detail = typeof log['detail'] === 'string' ? withoutAddress(log['detail'], email) : undefined;
      return this.isUpdated(
        { pk: String(log['pk']), sk: String(log['sk']) },
        {
          UpdateExpression: `${detail !== undefined ? 'SET detail = :detail ' : ''}REMOVE ip_address, user_agent, #url`,
          ExpressionAttributeNames: { '#url': 'url' },
          ...(detail !== undefined ? { ExpressionAttributeValues: { ':detail': detail } } : {}),
        },
      );
    });
    return { found, logs: traced.length };
  }

  private async isUpdated(
    key: { pk: string; sk: string },
    update: Parameters<DynamoErasureStore['updateIfExists']>[1],
  ): Promise<boolean> {
    return (await this.updateIfExists(key, update)) !== undefined;
  }

  /** The update, only if the item exists: its old attributes when asked (`ReturnValues`), else `{}`; undefined when absent. */
  private async updateIfExists(
    key: { pk: string; sk: string },
    update: {
      UpdateExpression: string;
      ExpressionAttributeNames?: Record<string, string>;
      ExpressionAttributeValues?: Record<string, unknown>;
      ReturnValues?: 'ALL_OLD';
      ConditionExpression?: string;
    },
  ): Promise<Record<string, unknown> | undefined> {
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          ConditionExpression: 'attribute_exists(pk)',
          ...update,
        }),
      );
      return out.Attributes ?? {};
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }
}

/** A bounce's diagnostic may quote the address (`550 5.1.1 <ann@example.com>: user unknown`). */
const mentions = (text: unknown, email: string): boolean =>
  typeof text === 'string' && text.toLowerCase().includes(email.toLowerCase());

function withoutAddress(text: string, email: string): string {
  const lower = text.toLowerCase();
  const needle = email.toLowerCase();
  let out = '';
  let from = 0;
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, from)) {
    out += `${text.slice(from, at)}[erased]`;
    from = at + needle.length;
  }
  return out + text.slice(from);
}

/** Runs `task` over the items, at most PARALLEL_WRITES at a time; results in input order. */
async function inWaves<T, R>(items: readonly T[], task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += PARALLEL_WRITES) {
    results.push(...(await Promise.all(items.slice(i, i + PARALLEL_WRITES).map(task))));
  }
  return results;
}
