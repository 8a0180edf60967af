import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoContactStore } from '../../../../shared/adapters/dynamo/contact-store.js';
import { DynamoErasureStore } from '../../../../shared/adapters/dynamo/erasure-store.js';
import { keys } from '../../../../shared/adapters/dynamo/keys.js';
import { DynamoTopicStore } from '../../../../shared/adapters/dynamo/topic-store.js';
import { DynamoUnsubscribeStore } from '../../../../shared/adapters/dynamo/unsubscribe-store.js';
import type { ContactRecord } from '../../../../shared/domain/contacts/contact-store.js';
import { SENT_STATUS } from '../../../../shared/domain/sent-emails/sent-email-record.js';
import { contactRecord } from '../../support/contact-fixtures.js';

/** Each topic's `contacts_left`, moved in the transaction that changes a contact's choice. */
const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const TABLE = 'tbl';
const EMAIL_ID = '00000000-0000-8000-8000-000000000001';
const AT = '2026-01-15T10:00:00.000Z';
const CONTACT_KEY = { pk: 'CONTACT#7#42', sk: 'CONTACT' };
const TOPICS_KEY = { pk: 'CLIENT#7', sk: 'TOPICS' };
const TOPIC_NAMES = { '#topic': 'topic_3', '#topicAt': 'topic_at_3', '#topicBy': 'topic_by_3' };

const cancelled = (reasons: { Code: string; Item?: Record<string, unknown> }[]) =>
  new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: reasons as never });
const conditionFailed = (item?: Record<string, unknown>) =>
  new ConditionalCheckFailedException({ message: 'failed', $metadata: {}, ...(item ? { Item: item as never } : {}) });

beforeEach(() => dbMock.reset());

describe('the one-click leave of a topic', () => {
  it("adds 1 to the topic's contacts_left in the same transaction as the contact's choice", async () => {
    dbMock.on(TransactWriteCommand).resolves({});

    const outcome = await new DynamoUnsubscribeStore(db, TABLE).leaveTopic({
      clientId: 7,
      contactId: 42,
      sentEmailId: EMAIL_ID,
      workflowId: 3,
      topicId: 3,
      log: { id: 'unsubscribe-link', created_at: AT, status: SENT_STATUS.unsubscribed },
    });

    expect(outcome).toBe('left');
    expect(dbMock.calls()).toHaveLength(1);
    const items = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items).toHaveLength(3);
    expect(items[0]!.Update).toMatchObject({
      Key: CONTACT_KEY,
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#topic) OR #topic = :true)',
    });
    expect(items[1]).toEqual({
      Update: {
        TableName: TABLE,
        Key: TOPICS_KEY,
        UpdateExpression: 'ADD #left0 :left0',
        ExpressionAttributeNames: { '#left0': 'contacts_left_3' },
        ExpressionAttributeValues: { ':left0': 1 },
      },
    });
    // The log says the link did it: the day counters count `unsubscribed_link` on workflow 3 from it.
    expect(items[2]!.Put!.Item).toMatchObject({ pk: `SENT#7#${EMAIL_ID}`, workflow_id: 3, unsubscribed_by: 'link' });
  });
});

describe('the preference page save', () => {
  const save = {
    clientId: 7,
    contactId: 42,
    sentEmailId: EMAIL_ID,
    // Topic 1 left (it was never chosen), topic 2 joined again (it was left), topic 4 joined (never chosen: no count).
    topics: { 1: false, 2: true, 4: true },
    previous: { 1: undefined, 2: false, 4: undefined },
    at: AT,
    log: { id: `preferences-${AT}`, created_at: AT, status: SENT_STATUS.unsubscribed },
  };

  it('conditions the contact on the choices it read and moves each changed count once, in one transaction', async () => {
    dbMock.on(TransactWriteCommand).resolves({});

    expect(await new DynamoUnsubscribeStore(db, TABLE).savePreferences(save)).toBe('saved');

    expect(dbMock.calls()).toHaveLength(1);
    expect(dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input).toEqual({
      TransactItems: [
        {
          Update: {
            TableName: TABLE,
            Key: CONTACT_KEY,
            UpdateExpression:
              'SET updated_at = :at, #t0_0 = :t0_0, #t0_1 = :t0_1, #t0_2 = :t0_2, #t1_0 = :t1_0, #t1_1 = :t1_1, #t1_2 = :t1_2, #t2_0 = :t2_0, #t2_1 = :t2_1, #t2_2 = :t2_2',
            ConditionExpression:
              'attribute_exists(pk) AND attribute_not_exists(#t0_0) AND #t1_0 = :p1 AND attribute_not_exists(#t2_0)',
            ExpressionAttributeNames: {
              '#t0_0': 'topic_1',
              '#t0_1': 'topic_at_1',
              '#t0_2': 'topic_by_1',
              '#t1_0': 'topic_2',
              '#t1_1': 'topic_at_2',
              '#t1_2': 'topic_by_2',
              '#t2_0': 'topic_4',
              '#t2_1': 'topic_at_4',
              '#t2_2': 'topic_by_4',
            },
            ExpressionAttributeValues: {
              ':at': AT,
              ':t0_0': false,
              ':t0_1': AT,
              ':t0_2': 'preference_page',
              ':t1_0': true,
              ':t1_1': AT,
              ':t1_2': 'preference_page',
              ':p1': false,
              ':t2_0': true,
              ':t2_1': AT,
              ':t2_2': 'preference_page',
            },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        {
          Update: {
            TableName: TABLE,
            Key: TOPICS_KEY,
            UpdateExpression: 'ADD #left0 :left0, #left1 :left1',
            ExpressionAttributeNames: { '#left0': 'contacts_left_1', '#left1': 'contacts_left_2' },
            ExpressionAttributeValues: { ':left0': 1, ':left1': -1 },
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: {
              pk: `SENT#7#${EMAIL_ID}`,
              sk: `LOG#${AT}#preferences-${AT}`,
              entity: 'sent_email_log',
              ...save.log,
            },
          },
        },
      ],
    });
  });

  it('leaves the topics item out when no count moves', async () => {
    dbMock.on(TransactWriteCommand).resolves({});

    await new DynamoUnsubscribeStore(db, TABLE).savePreferences({
      ...save,
      topics: { 4: true },
      previous: { 4: undefined },
      log: undefined,
    });

    const items = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items.map((i) => i.Update?.Key ?? i.Put?.Item)).toEqual([CONTACT_KEY]);
  });

  it.each([
    ['changed', 'a contact whose choices moved since the read', { id: { N: '42' } }],
    ['gone', 'a contact that is gone', undefined],
  ])('answers %s for %s (nothing written)', async (outcome, _case, item) => {
    dbMock
      .on(TransactWriteCommand)
      .rejects(cancelled([{ Code: 'ConditionalCheckFailed', ...(item ? { Item: item } : {}) }, { Code: 'None' }]));

    expect(await new DynamoUnsubscribeStore(db, TABLE).savePreferences(save)).toBe(outcome);
    expect(dbMock.calls()).toHaveLength(1);
  });
});

describe('PATCH /client/contacts/{id}/subscription with topic_id (DynamoContactStore.updateSubscription)', () => {
  const store = () => new DynamoContactStore(db, TABLE);
  const stored = {
    pk: { S: 'CONTACT#7#42' },
    sk: { S: 'CONTACT' },
    id: { N: '42' },
    client_id: { N: '7' },
    email: { S: 'ann@example.com' },
  };

  it('is one UpdateItem when the count does not move (never chose → true)', async () => {
    dbMock.on(UpdateCommand).resolves({ Attributes: { ...CONTACT_KEY, id: 42, topic_3: true } });

    const contact = await store().updateSubscription(7, 42, { is_subscribed: true, topic_id: 3, at: AT });

    expect(contact).toEqual({ id: 42, topic_3: true });
    expect(dbMock.calls()).toHaveLength(1);
    expect(dbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      Key: CONTACT_KEY,
      UpdateExpression: 'SET #topic = :s, #topicAt = :at, #topicBy = :by, updated_at = :at',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#topic) OR #topic = :true)',
      ExpressionAttributeNames: TOPIC_NAMES,
      ExpressionAttributeValues: { ':s': true, ':at': AT, ':by': 'api', ':true': true },
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
  });

  it('is the failed UpdateItem and one transaction when the contact leaves (+1), conditioned on the choice that came back', async () => {
    dbMock.on(UpdateCommand).rejects(conditionFailed({ ...stored, topic_3: { BOOL: true } }));
    dbMock.on(TransactWriteCommand).resolves({});

    const contact = await store().updateSubscription(7, 42, { is_subscribed: false, topic_id: 3, at: AT });

    expect(contact).toEqual({
      id: 42,
      client_id: 7,
      email: 'ann@example.com',
      topic_3: false,
      topic_at_3: AT,
      topic_by_3: 'api',
      updated_at: AT,
    });
    expect(dbMock.calls()).toHaveLength(2);
    expect(dbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      ConditionExpression: '#topic = :false',
      ExpressionAttributeValues: { ':s': false, ':at': AT, ':by': 'api', ':false': false },
    });
    expect(dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input).toEqual({
      TransactItems: [
        {
          Update: {
            TableName: TABLE,
            Key: CONTACT_KEY,
            UpdateExpression: 'SET #topic = :s, #topicAt = :at, #topicBy = :by, updated_at = :at',
            ConditionExpression: '#topic = :previous',
            ExpressionAttributeNames: TOPIC_NAMES,
            ExpressionAttributeValues: { ':s': false, ':at': AT, ':by': 'api', ':previous': true },
          },
        },
        {
          Update: {
            TableName: TABLE,
            Key: TOPICS_KEY,
            UpdateExpression: 'ADD #left0 :left0',
            ExpressionAttributeNames: { '#left0': 'contacts_left_3' },
            ExpressionAttributeValues: { ':left0': 1 },
          },
        },
      ],
    });
  });

  it('rejoins (−1) a contact that had left, and conditions a contact that never chose on the choice being absent', async () => {
    dbMock.on(UpdateCommand).rejects(conditionFailed({ ...stored, topic_3: { BOOL: false } }));
    dbMock.on(TransactWriteCommand).resolves({});
    await store().updateSubscription(7, 42, { is_subscribed: true, topic_id: 3, at: AT });
    const rejoin = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(rejoin[0]!.Update!.ExpressionAttributeValues).toEqual({
      ':s': true,
      ':at': AT,
      ':by': 'api',
      ':previous': false,
    });
    expect(rejoin[1]!.Update!.ExpressionAttributeValues).toEqual({ ':left0': -1 });

    dbMock.reset();
    dbMock.on(UpdateCommand).rejects(conditionFailed(stored));
    dbMock.on(TransactWriteCommand).resolves({});
    await store().updateSubscription(7, 42, { is_subscribed: false, topic_id: 3, at: AT });
    const first = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(first[0]!.Update!.ConditionExpression).toBe('attribute_exists(pk) AND attribute_not_exists(#topic)');
    expect(first[1]!.Update!.ExpressionAttributeValues).toEqual({ ':left0': 1 });
  });

  it('decides again when the choice changed between the failed condition and the transaction', async () => {
    dbMock
      .on(UpdateCommand)
      .rejectsOnce(conditionFailed({ ...stored, topic_3: { BOOL: true } }))
      // Meanwhile a one-click link left the topic: now nothing moves.
      .resolves({ Attributes: { ...CONTACT_KEY, id: 42, topic_3: false } });
    dbMock
      .on(TransactWriteCommand)
      .rejects(cancelled([{ Code: 'ConditionalCheckFailed', Item: { id: { N: '42' } } }, { Code: 'None' }]));

    const contact = await store().updateSubscription(7, 42, { is_subscribed: false, topic_id: 3, at: AT });

    expect(contact).toEqual({ id: 42, topic_3: false });
    expect(dbMock.commandCalls(UpdateCommand)).toHaveLength(2);
    expect(dbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('answers undefined (404) for a contact that is gone', async () => {
    dbMock.on(UpdateCommand).rejects(conditionFailed());

    expect(await store().updateSubscription(7, 42, { is_subscribed: false, topic_id: 3, at: AT })).toBeUndefined();
    expect(dbMock.calls()).toHaveLength(1);
  });
});

describe('the erasure of a contact that had left topics', () => {
  it("takes 1 off each left topic's count in the tombstone's transaction", async () => {
    dbMock.on(TransactWriteCommand).resolves({});
    const contact = {
      ...contactRecord({ id: 42, client_id: 7 }),
      topic_1: false,
      topic_2: true,
      topic_5: false,
    } as unknown as ContactRecord;

    expect(await new DynamoErasureStore(db, TABLE).replaceByTombstone(contact, undefined, AT)).toBe('erased');

    const items = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[0]!.Delete).toMatchObject({ Key: CONTACT_KEY, ConditionExpression: 'updated_at = :u' });
    expect(items.at(-1)).toEqual({
      Update: {
        TableName: TABLE,
        Key: TOPICS_KEY,
        UpdateExpression: 'ADD #left0 :left0, #left1 :left1',
        ExpressionAttributeNames: { '#left0': 'contacts_left_1', '#left1': 'contacts_left_5' },
        ExpressionAttributeValues: { ':left0': -1, ':left1': -1 },
      },
    });
  });

  it('writes no count for a contact that left none', async () => {
    dbMock.on(TransactWriteCommand).resolves({});
    const contact = { ...contactRecord({ id: 42, client_id: 7 }), topic_2: true } as unknown as ContactRecord;

    await new DynamoErasureStore(db, TABLE).replaceByTombstone(contact, undefined, AT);

    const items = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items.some((i) => i.Update?.Key?.['sk'] === 'TOPICS')).toBe(false);
  });
});

describe('the topics item', () => {
  const topic = { id: 3, name: 'News', description: '', default_subscribed: true, created_at: AT, updated_at: AT };

  it('reads each topic’s contacts_left beside the set', async () => {
    dbMock.on(GetCommand).resolves({
      Item: { ...TOPICS_KEY, topics: [topic], next_id: 4, version: 2, contacts_left_3: 5, contacts_left_1: 0 },
    });

    expect(await new DynamoTopicStore(db, TABLE).load(7)).toEqual({
      topics: [topic],
      next_id: 4,
      version: 2,
      contacts_left: { 3: 5, 1: 0 },
    });
  });

  it('saves the set with an UpdateItem that leaves the counts alone', async () => {
    dbMock.on(UpdateCommand).resolves({});
    const store = new DynamoTopicStore(db, TABLE);

    await store.save(7, { topics: [topic], next_id: 4, version: 3, contacts_left: { 3: 99 } }, AT);
    await store.save(7, { topics: [topic], next_id: 4, version: 1 }, AT);

    const [later, first] = dbMock.commandCalls(UpdateCommand).map((c) => c.args[0].input);
    expect(later).toEqual({
      TableName: TABLE,
      Key: keys.topics(7),
      UpdateExpression: 'SET topics = :topics, next_id = :next, version = :version, updated_at = :at',
      ConditionExpression: 'version = :v',
      ExpressionAttributeValues: { ':topics': [topic], ':next': 4, ':version': 3, ':at': AT, ':v': 2 },
    });
    // The first topic: no version yet (an item holding only counts counts as none).
    expect(first).toMatchObject({
      ConditionExpression: 'attribute_not_exists(version)',
      ExpressionAttributeValues: { ':version': 1 },
    });
  });
});
