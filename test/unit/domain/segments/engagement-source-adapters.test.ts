import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoErasureStore } from '../../../../shared/adapters/dynamo/erasure-store.js';
import { segmentChangesOfStreamRecords } from '../../../../shared/adapters/dynamo/segment-routing.js';
import { DynamoTrackingStore } from '../../../../shared/adapters/dynamo/tracking-store.js';
import { SENT_STATUS } from '../../../../shared/domain/sent-emails/sent-email-record.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const TABLE = 'tbl';
const EMAIL_ID = '00000000-0000-8000-8000-000000000001';
const AT = '2026-01-15T10:05:00.000Z';

beforeEach(() => dbMock.reset());

const transactItems = () => dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
const engagementItem = () => transactItems().find((i) => String(i.Update?.Key?.['sk']).startsWith('ENG#'))?.Update;

describe("the status step writes the contact's engagement with the e-mail's source", () => {
  it("a human open of a broadcast's e-mail: its ENG#B item in the same transaction, after the others", async () => {
    dbMock.on(TransactWriteCommand).resolves({});
    const store = new DynamoTrackingStore(db, TABLE);

    await store.record({
      message: { client_id: 7, sent_email_id: EMAIL_ID, contact_id: 42, workflow_id: 0, broadcast_id: 9 },
      log: { id: 'open-1', created_at: AT, status: SENT_STATUS.opened, is_bot: false },
      contact: { lastActivityAt: AT, lastOpenedAt: AT, countOpen: true },
    });

    expect(dbMock.calls()).toHaveLength(1);
    const items = transactItems();
    expect(items.at(-1)?.Update).toBe(engagementItem());
    expect(engagementItem()).toEqual({
      TableName: TABLE,
      Key: { pk: 'CONTACT#7#42', sk: 'ENG#B9' },
      UpdateExpression:
        'SET entity = :entity, client_id = :client, contact_id = :contact, #source = :source, opened_at = :opened',
      ExpressionAttributeNames: { '#source': 'source' },
      ExpressionAttributeValues: {
        ':entity': 'contact_engagement',
        ':client': 7,
        ':contact': 42,
        ':source': 'B9',
        ':opened': AT,
      },
    });
  });

  it("a human click of a journey's e-mail: its ENG#J item with the click", async () => {
    dbMock.on(TransactWriteCommand).resolves({});
    const store = new DynamoTrackingStore(db, TABLE);

    await store.record({
      message: { client_id: 7, sent_email_id: EMAIL_ID, contact_id: 42, workflow_id: 1003, step_id: 's1' },
      log: { id: 'click-1', created_at: AT, status: SENT_STATUS.clicked, is_bot: false },
      contact: { lastActivityAt: AT, lastClickedAt: AT, countClick: true },
    });

    expect(engagementItem()?.Key).toEqual({ pk: 'CONTACT#7#42', sk: 'ENG#J1003' });
    expect(engagementItem()?.ExpressionAttributeValues?.[':clicked']).toBe(AT);
  });

  it("nothing for a machine's open (no contact change: its log alone, one Put), nor for a system workflow's e-mail", async () => {
    dbMock.on(PutCommand).resolves({});
    const store = new DynamoTrackingStore(db, TABLE);

    await store.record({
      message: { client_id: 7, sent_email_id: EMAIL_ID, contact_id: 42, workflow_id: 0, broadcast_id: 9 },
      log: { id: 'open-bot', created_at: AT, status: SENT_STATUS.opened, is_bot: true },
    });
    expect(dbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(dbMock.commandCalls(PutCommand)).toHaveLength(1);
    dbMock.reset();
    dbMock.on(TransactWriteCommand).resolves({});
    await store.record({
      message: { client_id: 7, sent_email_id: EMAIL_ID, contact_id: 42, workflow_id: 3 },
      log: { id: 'open-2', created_at: AT, status: SENT_STATUS.opened, is_bot: false },
      contact: { lastActivityAt: AT, lastOpenedAt: AT },
    });
    expect(engagementItem()).toBeUndefined();
  });
});

describe('erasure removes the engagement items', () => {
  it('finds them by prefix in the contact partition and deletes them with the segment state', async () => {
    dbMock.on(GetCommand).resolves({ Item: { pk: 'CONTACT#7#42', sk: 'SEGSTATE', sv: 2, m_3: 1 } });
    dbMock.on(QueryCommand).resolves({
      Items: [
        { pk: 'CONTACT#7#42', sk: 'ENG#B9' },
        { pk: 'CONTACT#7#42', sk: 'ENG#J1003' },
      ],
    });
    dbMock.on(BatchWriteCommand).resolves({});
    const store = new DynamoErasureStore(db, TABLE);

    const removed = await store.dropSegmentData(7, 42);

    const query = dbMock.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(query.ExpressionAttributeValues).toEqual({ ':pk': 'CONTACT#7#42', ':eng': 'ENG#' });
    const deleted = dbMock
      .commandCalls(BatchWriteCommand)
      .flatMap((c) => c.args[0].input.RequestItems![TABLE]!.map((r) => r.DeleteRequest!.Key));
    expect(deleted).toEqual(
      expect.arrayContaining([
        { pk: 'CONTACT#7#42', sk: 'ENG#B9' },
        { pk: 'CONTACT#7#42', sk: 'ENG#J1003' },
        { pk: 'CONTACT#7#42', sk: 'SEGSTATE' },
      ]),
    );
    expect(removed).toBe(4);
  });
});

describe("the change stream's engagement records", () => {
  it('become changes of their contact and source', () => {
    const record = {
      eventName: 'MODIFY',
      dynamodb: {
        NewImage: marshall({ pk: 'CONTACT#7#42', sk: 'ENG#B9', entity: 'contact_engagement', opened_at: AT }),
      },
    } as unknown as DynamoDBRecord;

    expect(segmentChangesOfStreamRecords([record])).toEqual([
      expect.objectContaining({ clientId: 7, contactId: 42, item: 'engagement', source: 'B9' }),
    ]);
  });
});
