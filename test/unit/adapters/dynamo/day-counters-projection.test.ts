import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  chunksOf,
  DynamoDayCountersProjection,
  streamPositionOf,
} from '../../../../shared/adapters/dynamo/day-counters-projection.js';
import { SENT_STATUS } from '../../../../shared/domain/sent-emails/sent-email-record.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const TABLE = 'tbl';
const SHARD = 'shardId-0001';
const POSITION_KEY = { pk: `STREAMPOS#day-counters#${SHARD}`, sk: 'STREAMPOS' };

/** A status log of client 7 inserted (record `seq` of the shard), with `fields`. */
function logInserted(seq: number, day: string, fields: Record<string, unknown>): DynamoDBRecord {
  const keys = { pk: `SENT#7#e${seq}`, sk: `LOG#${day}T10:00:00.000Z#l${seq}` };
  const item = { ...keys, entity: 'sent_email_log', id: `l${seq}`, created_at: `${day}T10:00:00.000Z`, ...fields };
  return {
    eventName: 'INSERT',
    dynamodb: { SequenceNumber: String(1000 + seq), Keys: marshall(keys) as never, NewImage: marshall(item) as never },
  };
}

/** A delivery of workflow 3 on `day` (a row of its own per day). */
const delivered = (seq: number, day = '2026-01-15') =>
  logInserted(seq, day, { status: SENT_STATUS.delivered, workflow_id: 3 });

/** A change the counters ignore (the claim's queued log). */
const uncounted = (seq: number) => logInserted(seq, '2026-01-15', { status: SENT_STATUS.queued });

const dayOf = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);

beforeEach(() => dbMock.reset());

describe('chunksOf', () => {
  it('sums a batch per row and cuts it at record boundaries so no transaction holds more than 99 rows', () => {
    const records = [
      ...Array.from({ length: 150 }, (_, i) => delivered(i, dayOf(i))),
      delivered(150, dayOf(0)),
      uncounted(151),
    ];
    const chunks = chunksOf(records);
    expect(chunks.map((c) => [c.rows.length, c.records, c.last])).toEqual([
      [99, 99, '1098'],
      [52, 53, '1151'],
    ]);
    // The 151st record's day is the first record's again: a row of the second chunk too (each chunk sums its own).
    expect(chunks[1]!.rows.find((r) => r.day === dayOf(0))!.counts).toEqual({ delivered: 1 });
  });
});

describe('DynamoDayCountersProjection.apply', () => {
  it('writes the rows and the shard’s position in one transaction, the position required unchanged', async () => {
    dbMock.on(GetCommand).resolves({ Item: { ...POSITION_KEY, pos: streamPositionOf('1000') } });
    dbMock.on(TransactWriteCommand).resolves({});

    const outcome = await new DynamoDayCountersProjection(db, TABLE, 400, () => 0).apply(SHARD, [
      delivered(1),
      delivered(2),
    ]);

    expect(outcome).toEqual({ replayed: 0, applied: 2, rows: 1, transactions: 1, splitsMoved: [] });
    expect(dbMock.commandCalls(GetCommand)[0]!.args[0].input).toMatchObject({
      Key: POSITION_KEY,
      ConsistentRead: true,
    });
    const items = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items).toEqual([
      {
        Update: {
          TableName: TABLE,
          Key: POSITION_KEY,
          UpdateExpression: 'SET pos = :next, expires_at = :expires',
          ConditionExpression: 'pos = :seen',
          ExpressionAttributeValues: {
            ':next': streamPositionOf('1002'),
            ':expires': 2 * 86_400,
            ':seen': streamPositionOf('1000'),
          },
        },
      },
      {
        Update: {
          TableName: TABLE,
          Key: { pk: 'STATS#7#0', sk: '2026-01-15#W0003' },
          UpdateExpression:
            'ADD #a0 :a0 SET workflow_id = :id, #day = :day, expires_at = if_not_exists(expires_at, :expires)',
          ExpressionAttributeNames: { '#day': 'day', '#a0': 'delivered' },
          ExpressionAttributeValues: {
            ':a0': 2,
            ':id': 3,
            ':day': '2026-01-15',
            ':expires': Date.parse('2026-01-15T00:00:00Z') / 1000 + 400 * 86_400,
          },
        },
      },
    ]);
  });

  it('skips what the position says was applied: a batch handed over again writes nothing', async () => {
    dbMock.on(GetCommand).resolves({ Item: { ...POSITION_KEY, pos: streamPositionOf('1002') } });

    const outcome = await new DynamoDayCountersProjection(db, TABLE).apply(SHARD, [delivered(1), delivered(2)]);

    expect(outcome).toEqual({ replayed: 2, applied: 0, rows: 0, transactions: 0, splitsMoved: [] });
    expect(dbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('starts a shard never seen with a position that must not exist yet, and writes nothing for a batch that counts nothing', async () => {
    dbMock.on(GetCommand).resolves({});
    dbMock.on(TransactWriteCommand).resolves({});
    const projection = new DynamoDayCountersProjection(db, TABLE);

    await projection.apply(SHARD, [uncounted(1)]);
    expect(dbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);

    await projection.apply(SHARD, [delivered(2)]);
    expect(dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![0]!.Update).toMatchObject({
      ConditionExpression: 'attribute_not_exists(pos)',
    });
  });

  it('reads the position again when another invocation moved it, and applies only what is still new', async () => {
    dbMock
      .on(GetCommand)
      .resolvesOnce({ Item: { ...POSITION_KEY, pos: streamPositionOf('1000') } })
      .resolves({ Item: { ...POSITION_KEY, pos: streamPositionOf('1001') } });
    dbMock
      .on(TransactWriteCommand)
      .rejectsOnce(
        new TransactionCanceledException({
          message: 'cancelled',
          $metadata: {},
          CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }],
        }),
      )
      .resolves({});

    const outcome = await new DynamoDayCountersProjection(db, TABLE).apply(SHARD, [delivered(1), delivered(2)]);

    expect(outcome).toEqual({ replayed: 1, applied: 1, rows: 1, transactions: 1, splitsMoved: [] });
    const second = dbMock.commandCalls(TransactWriteCommand)[1]!.args[0].input.TransactItems!;
    expect(second[1]!.Update!.ExpressionAttributeValues![':a0']).toBe(1);
  });

  it('retries a chunk that met another shard’s transaction on a row, and throws on anything else', async () => {
    dbMock.on(GetCommand).resolves({});
    const conflict = new TransactionCanceledException({
      message: 'cancelled',
      $metadata: {},
      CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
    });
    dbMock.on(TransactWriteCommand).rejectsOnce(conflict).resolves({});
    await expect(new DynamoDayCountersProjection(db, TABLE).apply(SHARD, [delivered(1)])).resolves.toMatchObject({
      transactions: 1,
    });
    expect(dbMock.commandCalls(TransactWriteCommand)).toHaveLength(2);

    dbMock.reset();
    dbMock.on(GetCommand).resolves({});
    dbMock.on(TransactWriteCommand).rejects(new Error('throttled'));
    await expect(new DynamoDayCountersProjection(db, TABLE).apply(SHARD, [delivered(1)])).rejects.toThrow('throttled');
  });
});

describe('DynamoDayCountersProjection: segment sizes and broadcast totals', () => {
  const member = (seq: number, eventName: 'INSERT' | 'REMOVE', contactId: number): DynamoDBRecord => {
    const keys = { pk: `SEGM#7#000012#${contactId % 16}`, sk: String(contactId).padStart(12, '0') };
    const image = marshall({
      ...keys,
      entity: 'segment_member',
      segment_id: 12,
      contact_id: contactId,
      at: '2026-01-15T10:00:00.000Z',
    });
    return {
      eventName,
      dynamodb: {
        SequenceNumber: String(1000 + seq),
        Keys: marshall(keys) as never,
        ...(eventName === 'INSERT' ? { NewImage: image as never } : { OldImage: image as never }),
      },
    };
  };

  it('adds a batch’s member entries written and removed to the segment’s gauge in one update', async () => {
    dbMock.on(GetCommand).resolves({});
    dbMock.on(TransactWriteCommand).resolves({});

    await new DynamoDayCountersProjection(db, TABLE, 400, () => Date.parse('2026-01-15T10:00:05.000Z')).apply(SHARD, [
      member(1, 'INSERT', 40),
      member(2, 'INSERT', 41),
      member(3, 'REMOVE', 40),
      member(4, 'INSERT', 57),
    ]);

    const items = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items).toHaveLength(2);
    expect(items[1]!.Update).toMatchObject({
      Key: { pk: 'STATS#7#0', sk: 'NOW#S000012' },
      UpdateExpression: 'ADD #a0 :a0 SET segment_id = :id, counted_at = :at',
      ExpressionAttributeNames: { '#a0': 'n' },
      ExpressionAttributeValues: { ':a0': 2, ':id': 12, ':at': '2026-01-15T10:00:05.000Z' },
    });
  });

  it('writes a broadcast e-mail’s delivery on the broadcast’s totals row, its expiry moved with each fact', async () => {
    dbMock.on(GetCommand).resolves({});
    dbMock.on(TransactWriteCommand).resolves({});

    await new DynamoDayCountersProjection(db, TABLE, 400, () => 0).apply(SHARD, [
      logInserted(1, '2026-01-15', { status: SENT_STATUS.delivered, workflow_id: 0, broadcast_id: 31 }),
    ]);

    const items = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    const totals = items.map((i) => i.Update).find((u) => u?.Key?.['sk'] === 'B00000031#T');
    expect(totals).toMatchObject({
      Key: { pk: 'STATS#7#0', sk: 'B00000031#T' },
      UpdateExpression: expect.stringContaining('expires_at = :expires'),
      ExpressionAttributeValues: expect.objectContaining({ ':id': 31, ':a0': 1 }),
    });
    expect(totals!.UpdateExpression).not.toContain('if_not_exists');
  });
});
