import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoTrackingStore } from '../../../../shared/adapters/dynamo/tracking-store.js';
import { SENT_STATUS } from '../../../../shared/domain/sent-emails/sent-email-record.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const TABLE = 'tbl';
const EMAIL_ID = '00000000-0000-8000-8000-000000000001';
const AT = '2026-01-15T10:05:00.000Z';
const message = { client_id: 7, sent_email_id: EMAIL_ID, contact_id: 42, send_zone: 'Asia/Tokyo' };

beforeEach(() => dbMock.reset());

/** The contact's item of the notification's transaction (the other items are not this test's concern). */
function contactUpdateSent() {
  const items = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
  return items.find((item) => item.Update?.Key?.['pk'] === 'CONTACT#7#42')?.Update;
}

describe('DynamoTrackingStore: the open-hour histogram', () => {
  it("adds a human open's local hour to the contact in the Update the transaction already sends", async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});
    const store = new DynamoTrackingStore(db, TABLE);

    // Act
    await store.record({
      message,
      log: { id: 'open-1', created_at: AT, status: SENT_STATUS.opened, is_bot: false },
      contact: { lastActivityAt: AT, lastOpenedAt: AT, countOpen: false, openHour: 19 },
    });

    // Assess
    expect(dbMock.calls()).toHaveLength(1);
    expect(contactUpdateSent()).toEqual({
      TableName: TABLE,
      Key: { pk: 'CONTACT#7#42', sk: 'CONTACT' },
      UpdateExpression: 'SET last_email_opened_at = :opened, last_activity_at = :activity ADD open_h19 :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':one': 1, ':opened': AT, ':activity': AT },
    });
  });

  it('adds nothing to the histogram for a change without an open hour', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});
    const store = new DynamoTrackingStore(db, TABLE);

    // Act
    await store.record({
      message,
      log: { id: 'click-1', created_at: AT, status: SENT_STATUS.clicked, is_bot: false },
      contact: { lastActivityAt: AT },
    });

    // Assess
    expect(contactUpdateSent()!.UpdateExpression).toBe('SET last_activity_at = :activity');
  });

  it("raises the client's aggregate with one UpdateItem ADD on its own OPENHOURS# item", async () => {
    // Prepare
    dbMock.on(UpdateCommand).resolves({});
    const store = new DynamoTrackingStore(db, TABLE);

    // Act
    await store.addClientOpenHour(7, 3);

    // Assess
    expect(dbMock.calls()).toHaveLength(1);
    expect(dbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      Key: { pk: 'OPENHOURS#7', sk: 'OPENHOURS' },
      UpdateExpression: 'ADD #h :one',
      ExpressionAttributeNames: { '#h': 'open_h03' },
      ExpressionAttributeValues: { ':one': 1 },
    });
  });

  it("reads the e-mail's send zone from the provider id's item", async () => {
    // Prepare
    dbMock.on(GetCommand).resolves({
      Item: {
        pk: 'MSG#m-1',
        sk: 'MSG',
        client_id: 7,
        sent_email_id: EMAIL_ID,
        contact_id: 42,
        send_zone: 'Asia/Tokyo',
      },
    });
    const store = new DynamoTrackingStore(db, TABLE);

    // Act
    const found = await store.findMessage('m-1');

    // Assess
    expect(found).toEqual(message);
  });
});

describe('DynamoTrackingStore: a notification that writes only its log', () => {
  it('writes the log with one conditional Put, not a one-item transaction (half the write units)', async () => {
    // Prepare
    dbMock.on(PutCommand).resolves({});
    const store = new DynamoTrackingStore(db, TABLE);

    // Act
    const outcome = await store.record({
      message,
      log: { id: 'delivery-1', created_at: AT, status: SENT_STATUS.delivered },
    });

    // Assess
    expect(outcome).toBe('recorded');
    expect(dbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
    const put = dbMock.commandCalls(PutCommand)[0]!.args[0].input;
    expect(put).toMatchObject({
      TableName: TABLE,
      Item: { pk: `SENT#7#${EMAIL_ID}`, sk: `LOG#${AT}#delivery-1`, status: SENT_STATUS.delivered },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  });

  it('answers duplicate when the log is already there (the same notification again), and rethrows anything else', async () => {
    // Prepare
    const store = new DynamoTrackingStore(db, TABLE);
    const write = { message, log: { id: 'delivery-1', created_at: AT, status: SENT_STATUS.delivered } };
    dbMock
      .on(PutCommand)
      .rejectsOnce(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }))
      .rejectsOnce(new Error('network'));

    // Act / Assess
    expect(await store.record(write)).toBe('duplicate');
    await expect(store.record(write)).rejects.toThrow('network');
  });
});
