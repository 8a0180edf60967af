import { TransactionCanceledException, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  topicChoiceAttribute,
  topicChoiceAttributes,
  topicChoiceSourceAttribute,
  topicChoiceTimeAttribute,
  type TopicChoiceSource,
} from '../../domain/topics/contact-topics.js';
import type {
  PreferenceSaveOutcome,
  PreferenceWrite,
  TopicUnsubscribe,
  TopicUnsubscribeOutcome,
  LinkUnsubscribe,
  LinkUnsubscribeOutcome,
  SubscriptionState,
  UnsubscribeStore,
} from '../../domain/links/unsubscribe-store.js';
import { linkUnsubscribeLogOf, preferenceLeftDeltas } from '../../domain/links/unsubscribe-store.js';
import { keys } from './keys.js';
import { sendTransaction } from './transactions.js';
import { contactsLeftUpdate } from './topic-counts.js';

/** A one-click unsubscribe is one TransactWriteItems: [contact Update, the e-mail's log Put]. */
export class DynamoUnsubscribeStore implements UnsubscribeStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async savePreferences(write: PreferenceWrite): Promise<PreferenceSaveOutcome> {
    const { clientId, contactId, sentEmailId, log, at } = write;
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':at': at };
    const set = ['updated_at = :at'];
    const conditions = ['attribute_exists(pk)'];
    Object.entries(write.topics).forEach(([topicId, subscribed], i) => {
      Object.entries(topicChoiceAttributes(Number(topicId), subscribed, at, 'preference_page')).forEach(
        ([name, value], j) => {
          names[`#t${i}_${j}`] = name;
          values[`:t${i}_${j}`] = value;
          set.push(`#t${i}_${j} = :t${i}_${j}`);
        },
      );
      // The choice as the page read it: the counts below move by exactly this change.
      const previous = write.previous[Number(topicId)];
      if (previous === undefined) conditions.push(`attribute_not_exists(#t${i}_0)`);
      else {
        values[`:p${i}`] = previous;
        conditions.push(`#t${i}_0 = :p${i}`);
      }
    });
    if (write.leaveAll) {
      // A reason and time another path set (a bounce racing the save) are kept.
      set.push(
        'is_subscribed = :false',
        'unsubscribed_at = if_not_exists(unsubscribed_at, :at)',
        'unsubscribe_reason = if_not_exists(unsubscribe_reason, :r)',
      );
      Object.assign(values, { ':false': false, ':r': write.leaveAll.reason });
    }
    const counts = contactsLeftUpdate(this.tableName, clientId, preferenceLeftDeltas(write));
    const command = new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: this.tableName,
            Key: keys.contact(clientId, contactId),
            UpdateExpression: `SET ${set.join(', ')}`,
            ConditionExpression: conditions.join(' AND '),
            ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
            ExpressionAttributeValues: values,
            // A failed condition tells a contact gone from one whose choices changed, with no read.
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        ...(counts ? [counts] : []),
        ...(log
          ? [
              {
                Put: {
                  TableName: this.tableName,
                  Item: { ...keys.sentEmailLogItem(clientId, sentEmailId, log.created_at, log.id), ...log },
                },
              },
            ]
          : []),
      ],
    });
    try {
      await sendTransaction(this.db, command);
      return 'saved';
    } catch (error) {
      const contact = error instanceof TransactionCanceledException ? error.CancellationReasons?.[0] : undefined;
      if (contact?.Code === 'ConditionalCheckFailed') return contact.Item ? 'changed' : 'gone';
      throw error;
    }
  }

  leaveTopic(write: TopicUnsubscribe): Promise<TopicUnsubscribeOutcome> {
    return leaveTopicIn(this.db, this.tableName, write);
  }

  async unsubscribe(write: LinkUnsubscribe): Promise<LinkUnsubscribeOutcome> {
    const { clientId, contactId, sentEmailId, reason, log } = write;
    const command = new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: this.tableName,
            Key: keys.contact(clientId, contactId),
            // The attributes ContactStore.updateSubscription writes; the first unsubscription time is kept.
            UpdateExpression:
              'SET is_subscribed = :s, updated_at = :at, unsubscribed_at = if_not_exists(unsubscribed_at, :at), unsubscribe_reason = :r',
            // Only a contact that exists and is still subscribed: an Update alone would create a bare item, and a
            // reason another path set (a hard bounce) is never overwritten.
            ConditionExpression: 'attribute_exists(pk) AND is_subscribed = :subscribed',
            ExpressionAttributeValues: { ':s': false, ':at': log.created_at, ':r': reason, ':subscribed': true },
            // A failed condition brings the contact back: the caller decides again without another read.
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        {
          Put: {
            TableName: this.tableName,
            // Counted (unsubscribed_link) from this log, written only with the contact's change, whose condition
            // makes it once per unsubscribe.
            Item: {
              ...keys.sentEmailLogItem(clientId, sentEmailId, log.created_at, log.id),
              ...linkUnsubscribeLogOf(write),
            },
          },
        },
      ],
    });
    try {
      await sendTransaction(this.db, command);
      return { status: 'unsubscribed' };
    } catch (error) {
      const contact = error instanceof TransactionCanceledException ? error.CancellationReasons?.[0] : undefined;
      if (contact?.Code !== 'ConditionalCheckFailed') throw error;
      return { status: 'not_subscribed', contact: subscriptionOf(contact.Item) };
    }
  }
}

/**
 * Leaving one topic: [contact Update of `topic_<id>`, the topic's `contacts_left` ADD, the e-mail's log Put], one
 * transaction.
 */
async function leaveTopicIn(
  db: DynamoDBDocumentClient,
  tableName: string,
  write: TopicUnsubscribe,
): Promise<TopicUnsubscribeOutcome> {
  const { clientId, contactId, sentEmailId, topicId, log } = write;
  const command = new TransactWriteCommand({
    TransactItems: [
      {
        Update: {
          TableName: tableName,
          Key: keys.contact(clientId, contactId),
          UpdateExpression: 'SET #topic = :false, #topicAt = :at, #topicBy = :by, updated_at = :at',
          // Only a contact that exists (an Update alone would create a bare item) and is still in the topic: a repeat
          // POST writes nothing and counts nothing.
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#topic) OR #topic = :true)',
          ExpressionAttributeNames: {
            '#topic': topicChoiceAttribute(topicId),
            '#topicAt': topicChoiceTimeAttribute(topicId),
            '#topicBy': topicChoiceSourceAttribute(topicId),
          },
          ExpressionAttributeValues: {
            ':false': false,
            ':true': true,
            ':at': log.created_at,
            ':by': 'one_click' satisfies TopicChoiceSource,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      // The topic's count, moved only with the contact's change (whose condition makes it once per contact).
      contactsLeftUpdate(tableName, clientId, { [topicId]: 1 })!,
      {
        Put: {
          TableName: tableName,
          Item: {
            ...keys.sentEmailLogItem(clientId, sentEmailId, log.created_at, log.id),
            ...linkUnsubscribeLogOf(write),
          },
        },
      },
    ],
  });
  try {
    await sendTransaction(db, command);
    return 'left';
  } catch (error) {
    const contact = error instanceof TransactionCanceledException ? error.CancellationReasons?.[0] : undefined;
    if (contact?.Code !== 'ConditionalCheckFailed') throw error;
    return contact.Item ? 'not_in_topic' : 'gone';
  }
}

/** The contact's subscription from a cancellation reason's item (raw attribute values: the document client leaves them). */
function subscriptionOf(item: Record<string, AttributeValue> | undefined): SubscriptionState | undefined {
  if (!item) return undefined;
  const reason = item['unsubscribe_reason']?.S;
  const since = item['unsubscribed_at']?.S;
  return {
    is_subscribed: item['is_subscribed']?.BOOL === true,
    ...(reason !== undefined ? { unsubscribe_reason: reason } : {}),
    ...(since !== undefined ? { unsubscribed_at: since } : {}),
  };
}
