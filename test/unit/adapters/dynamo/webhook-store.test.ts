import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoWebhookStore } from '../../../../shared/adapters/dynamo/webhook-store.js';
import type { WebhookRecord } from '../../../../shared/domain/webhooks/webhook-store.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const TABLE = 'tbl';
const AT = '2026-01-15T10:00:00.000Z';

const webhook: WebhookRecord = {
  id: 3,
  client_id: 7,
  url: 'https://hooks.example.com/els',
  description: 'CRM',
  event_types: ['email.sent'],
  enabled: true,
  humans_only: false,
  secret: 'whsec_c2VjcmV0',
  created_at: AT,
  updated_at: AT,
};
const KEY = { pk: 'CLIENT#7', sk: 'WEBHOOK#000000000003' };
const COUNT_KEY = { pk: 'CLIENT#7', sk: 'WEBHOOKS' };

const cancelled = (codes: string[]) =>
  new TransactionCanceledException({
    message: 'cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

beforeEach(() => dbMock.reset());

describe('DynamoWebhookStore', () => {
  it('creates the endpoint and raises the client count below the limit in one TransactWriteItems', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});

    // Act
    const outcome = await new DynamoWebhookStore(db, TABLE).create(webhook, 10);

    // Assess
    expect(outcome).toBe('created');
    expect(dbMock.calls()).toHaveLength(1);
    expect(dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input).toEqual({
      TransactItems: [
        {
          Update: {
            TableName: TABLE,
            Key: COUNT_KEY,
            UpdateExpression: 'ADD n :one',
            ConditionExpression: 'attribute_not_exists(n) OR n < :max',
            ExpressionAttributeValues: { ':one': 1, ':max': 10 },
          },
        },
        { Put: { TableName: TABLE, Item: { ...KEY, ...webhook }, ConditionExpression: 'attribute_not_exists(pk)' } },
      ],
    });
  });

  it('answers limit when the count condition fails', async () => {
    dbMock.on(TransactWriteCommand).rejects(cancelled(['ConditionalCheckFailed', 'None']));
    expect(await new DynamoWebhookStore(db, TABLE).create(webhook, 10)).toBe('limit');
  });

  it('reads one endpoint strongly consistent and lists the client partition by prefix', async () => {
    dbMock.on(GetCommand).resolves({ Item: { ...KEY, ...webhook } });
    dbMock.on(QueryCommand).resolves({ Items: [{ ...KEY, ...webhook }] });
    const store = new DynamoWebhookStore(db, TABLE);

    expect(await store.get(7, 3)).toEqual(webhook);
    expect(await store.list(7)).toEqual([webhook]);
    expect(dbMock.commandCalls(GetCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      Key: KEY,
      ConsistentRead: true,
    });
    expect(dbMock.commandCalls(QueryCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': 'CLIENT#7', ':prefix': 'WEBHOOK#' },
      ConsistentRead: true,
    });
  });

  it('updates the given fields with one conditional UpdateItem; a missing endpoint is undefined', async () => {
    dbMock
      .on(UpdateCommand)
      .resolvesOnce({ Attributes: { ...KEY, ...webhook, enabled: false } })
      .rejectsOnce(new ConditionalCheckFailedException({ message: 'no', $metadata: {} }));
    const store = new DynamoWebhookStore(db, TABLE);

    expect(await store.update(7, 3, { enabled: false, event_types: null }, AT)).toEqual({ ...webhook, enabled: false });
    expect(await store.update(7, 4, { enabled: false }, AT)).toBeUndefined();
    expect(dbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      Key: KEY,
      UpdateExpression: 'SET #f0 = :v0, #f1 = :v1, updated_at = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#f0': 'enabled', '#f1': 'event_types' },
      ExpressionAttributeValues: { ':at': AT, ':v0': false, ':v1': null },
      ReturnValues: 'ALL_NEW',
    });
  });

  it('rotates in one UpdateItem: the current secret becomes the previous one', async () => {
    dbMock
      .on(UpdateCommand)
      .resolves({ Attributes: { ...KEY, ...webhook, secret: 'whsec_bmV3', previous_secret: webhook.secret } });

    const rotated = await new DynamoWebhookStore(db, TABLE).rotateSecret(
      7,
      3,
      'whsec_bmV3',
      '2026-01-16T10:00:00.000Z',
      AT,
    );

    expect(rotated).toMatchObject({ secret: 'whsec_bmV3', previous_secret: webhook.secret });
    expect(dbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      Key: KEY,
      UpdateExpression:
        'SET previous_secret = secret, secret = :secret, previous_secret_expires_at = :expires, updated_at = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':secret': 'whsec_bmV3', ':expires': '2026-01-16T10:00:00.000Z', ':at': AT },
      ReturnValues: 'ALL_NEW',
    });
  });

  it('deletes the endpoint and lowers the count in one transaction; a missing endpoint is false', async () => {
    dbMock
      .on(TransactWriteCommand)
      .resolvesOnce({})
      .rejectsOnce(cancelled(['ConditionalCheckFailed', 'None']));
    const store = new DynamoWebhookStore(db, TABLE);

    expect(await store.delete(7, 3)).toBe(true);
    expect(await store.delete(7, 3)).toBe(false);
    expect(dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input).toEqual({
      TransactItems: [
        { Delete: { TableName: TABLE, Key: KEY, ConditionExpression: 'attribute_exists(pk)' } },
        {
          Update: {
            TableName: TABLE,
            Key: COUNT_KEY,
            UpdateExpression: 'ADD n :minus',
            ExpressionAttributeValues: { ':minus': -1 },
          },
        },
      ],
    });
  });
});
