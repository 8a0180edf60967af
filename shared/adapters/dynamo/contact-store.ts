import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import {
  SUPPRESSED,
  SuppressedAddress,
  UniqueViolation,
  type EmailLockOwner,
  type ContactFilter,
  type ContactPage,
  type ContactPageQuery,
  type ContactRecord,
  type ContactStore,
  type ContactWrite,
  type ContactWriteOptions,
  type ContactWriteOutcome,
  type SubscriptionChange,
} from '../../domain/contacts/contact-store.js';
import type { BackoffOptions } from './backoff.js';
import { batchGetItems } from './batch-get.js';
import { DynamoIds } from './ids.js';
import { sendTransaction } from './transactions.js';
import { stripKeys } from './items.js';
import {
  contactsLeftDelta,
  topicChoiceAttribute,
  topicChoiceSourceAttribute,
  topicChoiceTimeAttribute,
  type TopicChoiceSource,
} from '../../domain/topics/contact-topics.js';
import { SUPPRESSION_REASONS } from '../../domain/contacts/suppression.js';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { contactsLeftUpdate } from './topic-counts.js';
import { keys } from './keys.js';
import { TABLE_KEYS } from './table-definition.js';

/** Rounds of a topic choice whose transaction lost to a concurrent change of the same choice. */
const MAX_CHOICE_ATTEMPTS = 4;

export class DynamoContactStore implements ContactStore {
  private readonly ids: DynamoIds;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** Bulk reads and writes: backoff for UnprocessedKeys and throttling (tests shorten it). */
    private readonly backoff?: BackoffOptions,
  ) {
    this.ids = new DynamoIds(db, tableName);
  }

  async create(contact: ContactRecord): Promise<void> {
    const lockItems = [
      { ...keys.emailLock(contact.client_id, contact.email), contact_id: contact.id, kind: 'email' },
      ...(contact.client_contact_id
        ? [{ ...keys.uidLock(contact.client_id, contact.client_contact_id), contact_id: contact.id, kind: 'uid' }]
        : []),
    ];
    const command = new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: this.tableName,
            Item: { ...keys.contactItem(contact.client_id, contact.id), ...contact },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        ...lockItems.map((Item) => ({
          Put: {
            TableName: this.tableName,
            Item,
            ConditionExpression: 'attribute_not_exists(pk)',
            // A taken lock comes back with the failure: a suppression marker tells itself apart with no extra read.
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
          },
        })),
      ],
    });
    try {
      await sendTransaction(this.db, command);
    } catch (error) {
      throw translateLockConflict(error, ['contact', 'email', 'client_contact_id']);
    }
  }

  /**
   * The client's contacts through their gsi1 listing (`keys.contactShards` key values sorted by id), read in
   * parallel: each shard reads at most `limit` items after the cursor, the filter applied by DynamoDB. The page is
   * every match up to the lowest position a shard stopped at (beyond it another shard may hold smaller ids), sorted,
   * cut at `limit`: ≤ shards × limit items read a page, one eventually consistent Query per shard.
   */
  async list(clientId: number, query: ContactPageQuery): Promise<ContactPage> {
    const { expression, names, values } = filterExpressionOf(query.filter);
    const after = query.afterId !== undefined ? keys.contactListing(clientId, query.afterId).gsi1sk : undefined;
    const shards = await Promise.all(
      Array.from({ length: keys.contactShards }, async (_, shard) => {
        const out = await this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            IndexName: TABLE_KEYS.gsi1.name,
            KeyConditionExpression: after ? '#gpk = :pk AND #gsk > :after' : '#gpk = :pk',
            ...(expression ? { FilterExpression: expression } : {}),
            ExpressionAttributeNames: {
              '#gpk': TABLE_KEYS.gsi1.partitionKey,
              ...(after ? { '#gsk': TABLE_KEYS.gsi1.sortKey } : {}),
              ...names,
            },
            ExpressionAttributeValues: {
              ':pk': keys.contactListingPk(clientId, shard),
              ...(after ? { ':after': after } : {}),
              ...values,
            },
            Limit: query.limit,
          }),
        );
        const stoppedAt = out.LastEvaluatedKey ? Number(out.LastEvaluatedKey[TABLE_KEYS.gsi1.sortKey]) : undefined;
        return { items: (out.Items ?? []).map((item) => stripKeys<ContactRecord>(item)), stoppedAt };
      }),
    );
    const stops = shards.flatMap((s) => (s.stoppedAt === undefined ? [] : [s.stoppedAt]));
    const horizon = stops.length > 0 ? Math.min(...stops) : undefined;
    const seen = shards
      .flatMap((s) => s.items)
      .filter((c) => horizon === undefined || c.id <= horizon)
      .sort((a, b) => a.id - b.id);
    const contacts = seen.slice(0, query.limit);
    if (seen.length > query.limit) return { contacts, nextAfterId: contacts.at(-1)!.id };
    return horizon === undefined ? { contacts } : { contacts, nextAfterId: horizon };
  }

  async get(clientId: number, contactId: number): Promise<ContactRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.contact(clientId, contactId) }),
    );
    return out.Item ? stripKeys<ContactRecord>(out.Item) : undefined;
  }

  async getByEmail(clientId: number, email: string): Promise<ContactRecord | undefined> {
    const lock = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.emailLock(clientId, email) }),
    );
    const contactId = lock.Item?.['contact_id'];
    return typeof contactId === 'number' ? this.get(clientId, contactId) : undefined;
  }

  async updateSubscription(
    clientId: number,
    contactId: number,
    change: SubscriptionChange,
  ): Promise<ContactRecord | undefined> {
    if (change.topic_id !== undefined)
      return this.updateTopicChoice(clientId, contactId, change.topic_id, change.is_subscribed, change.at);
    const values: Record<string, unknown> = { ':s': change.is_subscribed, ':at': change.at };
    let condition = 'attribute_exists(pk)';
    let expression: string;
    if (change.is_subscribed) {
      expression = 'SET is_subscribed = :s, updated_at = :at REMOVE unsubscribed_at, unsubscribe_reason';
    } else {
      // The first unsubscription time is kept when an unsubscribed contact is unsubscribed again.
      expression = 'SET is_subscribed = :s, updated_at = :at, unsubscribed_at = if_not_exists(unsubscribed_at, :at)';
      if (change.unsubscribe_reason !== undefined) {
        expression += ', unsubscribe_reason = :r';
        values[':r'] = change.unsubscribe_reason;
        // A suppression reason (a bounce, a complaint) is never replaced: transactional mail must keep skipping it.
        const reasons = SUPPRESSION_REASONS.map((_, i) => `:sup${i}`);
        for (const [i, reason] of SUPPRESSION_REASONS.entries()) values[`:sup${i}`] = reason;
        values[':false'] = false;
        condition += ` AND NOT (is_subscribed = :false AND unsubscribe_reason IN (${reasons.join(', ')}))`;
      }
    }
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.contact(clientId, contactId),
          UpdateExpression: expression,
          ConditionExpression: condition,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return out.Attributes ? stripKeys<ContactRecord>(out.Attributes) : undefined;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // The contact exists but is suppressed: unsubscribe it again keeping the suppression reason (one more write).
      if (error.Item && change.unsubscribe_reason !== undefined)
        return this.updateSubscription(clientId, contactId, { ...change, unsubscribe_reason: undefined });
      return undefined;
    }
  }

  /**
   * One topic's choice (the contact's is_subscribed and reason stay as they are), with the topic's
   * `contacts_left`. First one UpdateItem conditioned on the count not moving (the choice stays on its
   * side of false): it answers the new contact (ALL_NEW), or, when the count must move, the old one (ALL_OLD on the
   * failed condition, no read units). Then one transaction: the contact, conditioned on the choice that came back,
   * and the topics item's ADD. Requests: 1 when the count does not move, 2 when it does; a change racing in between
   * fails the transaction's condition and is decided again.
   */
  private async updateTopicChoice(
    clientId: number,
    contactId: number,
    topicId: number,
    subscribed: boolean,
    at: string,
  ): Promise<ContactRecord | undefined> {
    const names = {
      '#topic': topicChoiceAttribute(topicId),
      '#topicAt': topicChoiceTimeAttribute(topicId),
      '#topicBy': topicChoiceSourceAttribute(topicId),
    };
    const expression = 'SET #topic = :s, #topicAt = :at, #topicBy = :by, updated_at = :at';
    const values = { ':s': subscribed, ':at': at, ':by': 'api' satisfies TopicChoiceSource };
    for (let attempt = 1; ; attempt += 1) {
      let old: Record<string, unknown>;
      try {
        const out = await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: keys.contact(clientId, contactId),
            UpdateExpression: expression,
            // The count moves only across false: false stays false, anything else stays anything else.
            ConditionExpression: subscribed
              ? 'attribute_exists(pk) AND (attribute_not_exists(#topic) OR #topic = :true)'
              : '#topic = :false',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: { ...values, ...(subscribed ? { ':true': true } : { ':false': false }) },
            ReturnValues: 'ALL_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return out.Attributes ? stripKeys<ContactRecord>(out.Attributes) : undefined;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        if (!error.Item) return undefined;
        old = unmarshall(error.Item);
      }
      const previous = typeof old[names['#topic']] === 'boolean' ? (old[names['#topic']] as boolean) : undefined;
      try {
        await sendTransaction(
          this.db,
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: this.tableName,
                  Key: keys.contact(clientId, contactId),
                  UpdateExpression: expression,
                  ConditionExpression:
                    previous === undefined
                      ? 'attribute_exists(pk) AND attribute_not_exists(#topic)'
                      : '#topic = :previous',
                  ExpressionAttributeNames: names,
                  ExpressionAttributeValues: {
                    ...values,
                    ...(previous === undefined ? {} : { ':previous': previous }),
                  },
                },
              },
              contactsLeftUpdate(this.tableName, clientId, { [topicId]: contactsLeftDelta(previous, subscribed) })!,
            ],
          }),
        );
        // The contact as the failed condition returned it, with what the transaction set.
        return stripKeys<ContactRecord>({
          ...old,
          [names['#topic']]: subscribed,
          [names['#topicAt']]: at,
          [names['#topicBy']]: values[':by'],
          updated_at: at,
        });
      } catch (error) {
        const reason = error instanceof TransactionCanceledException ? error.CancellationReasons?.[0] : undefined;
        if (reason?.Code !== 'ConditionalCheckFailed' || attempt >= MAX_CHOICE_ATTEMPTS) throw error;
        // The choice changed (or the contact went) since the failed condition: decide again.
      }
    }
  }

  async customFieldIds(clientId: number, names: string[]): Promise<Map<string, number>> {
    const unique = [...new Set(names)];
    // A Map, not an object: names such as `constructor` or `toString` must not hit Object.prototype.
    const found = new Map<string, number>();
    if (unique.length === 0) return found;
    const items = await batchGetItems(
      this.db,
      this.tableName,
      unique.map((n) => keys.customField(clientId, n)),
      {
        attributes: ['name', 'field_id'],
        backoff: this.backoff,
      },
    );
    for (const item of items) found.set(String(item['name']), Number(item['field_id']));
    // Every key was answered (unprocessed ones are asked again), so ids are reserved only for names not yet defined.
    const missing = unique.filter((n) => !found.has(n));
    if (missing.length === 0) return found;
    const first = await this.ids.next('custom_field', missing.length);
    await Promise.all(
      missing.map(async (name, i) => {
        try {
          await this.db.send(
            new PutCommand({
              TableName: this.tableName,
              Item: { ...keys.customField(clientId, name), name, field_id: first + i },
              ConditionExpression: 'attribute_not_exists(pk)',
            }),
          );
          found.set(name, first + i);
        } catch (error) {
          if (!(error instanceof ConditionalCheckFailedException)) throw error;
          // Defined by a concurrent request since the read: the stored id wins (the reserved one goes unused).
          const existing = await this.db.send(
            new GetCommand({ TableName: this.tableName, Key: keys.customField(clientId, name), ConsistentRead: true }),
          );
          found.set(name, Number(existing.Item?.['field_id']));
        }
      }),
    );
    return found;
  }

  async findIdsByEmail(clientId: number, emails: readonly string[]): Promise<Map<string, EmailLockOwner>> {
    return this.findLockOwners(emails.map((email) => [email, keys.emailLock(clientId, email)] as const));
  }

  async findIdsByUid(clientId: number, uids: readonly string[]): Promise<Map<string, number>> {
    // uid locks are never markers: only numbers come back.
    return this.findLockOwners(uids.map((uid) => [uid, keys.uidLock(clientId, uid)] as const)) as Promise<
      Map<string, number>
    >;
  }

  async getMany(clientId: number, contactIds: readonly number[]): Promise<Map<number, ContactRecord>> {
    const items = await batchGetItems(
      this.db,
      this.tableName,
      contactIds.map((id) => keys.contact(clientId, id)),
      { backoff: this.backoff },
    );
    const found = new Map<number, ContactRecord>();
    for (const item of items) {
      const contact = stripKeys<ContactRecord>(item);
      // The key names the client, so another client's contact can never come back here.
      found.set(contact.id, contact);
    }
    return found;
  }

  /**
   * Reads lock items (e-mail or uid) in bulk: lookup value → the contact id the lock points to, or SUPPRESSED for an
   * e-mail lock an erasure left as a suppression marker.
   */
  private async findLockOwners(
    entries: ReadonlyArray<readonly [string, { pk: string; sk: string }]>,
  ): Promise<Map<string, EmailLockOwner>> {
    // Each lock has a partition key of its own (the sort key is the same for every e-mail lock).
    const byPk = new Map(entries.map(([value, key]) => [key.pk, value]));
    const items = await batchGetItems(
      this.db,
      this.tableName,
      entries.map(([, key]) => key),
      {
        attributes: ['contact_id', 'suppressed'],
        backoff: this.backoff,
      },
    );
    const owners = new Map<string, EmailLockOwner>();
    for (const item of items) {
      const value = byPk.get(String(item['pk']));
      if (value === undefined) continue;
      if (typeof item['contact_id'] === 'number') owners.set(value, item['contact_id']);
      else if (typeof item['suppressed'] === 'string') owners.set(value, SUPPRESSED);
    }
    return owners;
  }
}

/**
 * Turns a cancelled transaction into the UniqueViolation of the lock whose condition failed.
 * `slots` names each TransactItem in order ('contact' = the contact row itself).
 */
export function translateLockConflict(error: unknown, slots: string[]): unknown {
  if (!(error instanceof TransactionCanceledException)) return error;
  const reasons = error.CancellationReasons ?? [];
  for (let i = 0; i < reasons.length; i += 1) {
    if (reasons[i]?.Code !== 'ConditionalCheckFailed') continue;
    const slot = slots[i];
    const suppressed = reasons[i]?.Item?.['suppressed'];
    if (slot === 'email' && suppressed?.S) return new SuppressedAddress(suppressed.S);
    if (slot === 'email' || slot === 'client_contact_id') return new UniqueViolation(slot);
  }
  return error;
}

/** The list filter as a FilterExpression (the memory adapter's `matchesFilter` reads the same rules). */
function filterExpressionOf(filter: ContactFilter) {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (filter.email_prefix !== undefined) {
    parts.push('begins_with(#email, :prefix)');
    Object.assign(names, { '#email': 'email' });
    values[':prefix'] = filter.email_prefix;
  }
  if (filter.is_subscribed !== undefined) {
    parts.push('#subscribed = :subscribed');
    Object.assign(names, { '#subscribed': 'is_subscribed' });
    values[':subscribed'] = filter.is_subscribed;
  }
  if (filter.source !== undefined) {
    parts.push('#source = :source');
    Object.assign(names, { '#source': 'source' });
    values[':source'] = filter.source;
  }
  if (filter.updated_since !== undefined) {
    parts.push('#updated >= :since');
    Object.assign(names, { '#updated': 'updated_at' });
    values[':since'] = filter.updated_since;
  }
  return { expression: parts.join(' AND '), names, values };
}
