import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoUnsubscribeStore } from '../../../../shared/adapters/dynamo/unsubscribe-store.js';
import { SENT_STATUS } from '../../../../shared/domain/sent-emails/sent-email-record.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const TABLE = 'tbl';
const EMAIL_ID = '00000000-0000-8000-8000-000000000001';
const AT = '2026-01-15T10:00:00.000Z';

const write = {
  clientId: 7,
  contactId: 42,
  sentEmailId: EMAIL_ID,
  workflowId: 3,
  reason: 'unsubscribe_link',
  log: { id: 'unsubscribe-link', created_at: AT, status: SENT_STATUS.unsubscribed },
};

const cancelled = (reasons: { Code: string; Item?: Record<string, unknown> }[]) =>
  new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: reasons as never });

beforeEach(() => dbMock.reset());

describe('DynamoUnsubscribeStore.unsubscribe', () => {
  it('sends the contact update and the log put (which the day counters count) as one TransactWriteItems', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});
    const store = new DynamoUnsubscribeStore(db, TABLE);

    // Act
    const outcome = await store.unsubscribe(write);

    // Assess
    expect(outcome).toEqual({ status: 'unsubscribed' });
    expect(dbMock.calls()).toHaveLength(1);
    expect(dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input).toEqual({
      TransactItems: [
        {
          Update: {
            TableName: TABLE,
            Key: { pk: 'CONTACT#7#42', sk: 'CONTACT' },
            UpdateExpression:
              'SET is_subscribed = :s, updated_at = :at, unsubscribed_at = if_not_exists(unsubscribed_at, :at), unsubscribe_reason = :r',
            ConditionExpression: 'attribute_exists(pk) AND is_subscribed = :subscribed',
            ExpressionAttributeValues: { ':s': false, ':at': AT, ':r': 'unsubscribe_link', ':subscribed': true },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: {
              pk: `SENT#7#${EMAIL_ID}`,
              sk: `LOG#${AT}#unsubscribe-link`,
              entity: 'sent_email_log',
              id: 'unsubscribe-link',
              created_at: AT,
              status: SENT_STATUS.unsubscribed,
              workflow_id: 3,
              unsubscribed_by: 'link',
            },
          },
        },
      ],
    });
  });

  it.each([
    [
      'an unsubscribed contact',
      {
        is_subscribed: { BOOL: false },
        unsubscribe_reason: { S: 'hard_bounce' },
        unsubscribed_at: { S: '2026-01-14T00:00:00.000Z' },
        id: { N: '42' },
      },
      { is_subscribed: false, unsubscribe_reason: 'hard_bounce', unsubscribed_at: '2026-01-14T00:00:00.000Z' },
    ],
    ['a contact with no reason or time', { is_subscribed: { BOOL: false } }, { is_subscribed: false }],
    ['a contact that is gone', undefined, undefined],
  ])('answers not_subscribed with the state of %s when the contact condition fails', async (_case, item, contact) => {
    // Prepare
    dbMock
      .on(TransactWriteCommand)
      .rejects(cancelled([{ Code: 'ConditionalCheckFailed', ...(item ? { Item: item } : {}) }, { Code: 'None' }]));
    const store = new DynamoUnsubscribeStore(db, TABLE);

    // Act
    const outcome = await store.unsubscribe(write);

    // Assess
    expect(outcome).toEqual({ status: 'not_subscribed', contact });
    expect(dbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('sends the transaction again while it only conflicts with another one in flight', async () => {
    dbMock
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled([{ Code: 'TransactionConflict' }, { Code: 'None' }]))
      .resolves({});
    const store = new DynamoUnsubscribeStore(db, TABLE);

    expect(await store.unsubscribe(write)).toEqual({ status: 'unsubscribed' });
    expect(dbMock.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it.each([
    ['a cancellation for another reason', cancelled([{ Code: 'None' }, { Code: 'ValidationError' }])],
    ['a service error', Object.assign(new Error('throttled'), { name: 'ProvisionedThroughputExceededException' })],
  ])('throws %s', async (_case, error) => {
    dbMock.on(TransactWriteCommand).rejects(error);
    const store = new DynamoUnsubscribeStore(db, TABLE);

    await expect(store.unsubscribe(write)).rejects.toBe(error);
  });
});
