import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import {
  DAY_COUNTERS_PROJECTION,
  DynamoDayCountersProjection,
  streamPositionOf,
} from '../../../shared/adapters/dynamo/day-counters-projection.js';
import { keys } from '../../../shared/adapters/dynamo/keys.js';
import { queryAll } from '../../../shared/adapters/dynamo/query-all.js';
import { tableOf } from '../../../shared/composition/providers/table.js';
import { SENT_STATUS } from '../../../shared/domain/sent-emails/sent-email-record.js';
import { engineContainer } from '../support/engine-components.js';

/**
 * The day counters' projection is exact under a batch handed over again, whole or bisected, after dying halfway: the
 * stream's at-least-once delivery and Lambda's retries (a timeout, a crash between two transactions) must count
 * nothing twice and drop nothing. Real DynamoDB Local; the crash is a transaction that fails after the first.
 */
const RECORDS = 250;
const DAYS = 150;
const dayOf = (i: number) => new Date(Date.UTC(2025, 0, 1) + (i % DAYS) * 86_400_000).toISOString().slice(0, 10);

/** Record i: a delivered log of e-mail i, on day i mod 150 (so the batch touches 150 rows: two transactions). */
function batchOf(clientId: number): DynamoDBRecord[] {
  return Array.from({ length: RECORDS }, (_, i) => {
    const at = `${dayOf(i)}T10:00:00.000Z`;
    const key = keys.sentEmailLog(clientId, `e-${i}`, at, `l-${i}`);
    return {
      eventName: 'INSERT',
      dynamodb: {
        SequenceNumber: String(5_000_000 + i),
        Keys: marshall(key) as never,
        NewImage: marshall({
          ...key,
          id: `l-${i}`,
          created_at: at,
          status: SENT_STATUS.delivered,
          workflow_id: 1,
        }) as never,
      },
    };
  });
}

/** The db with its `nth` TransactWriteItems (from now on) failing as a process that died there would. */
function crashingAt(db: DynamoDBDocumentClient, nth: number): DynamoDBDocumentClient {
  let transactions = 0;
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return (command: unknown) => {
        if (command instanceof TransactWriteCommand && ++transactions === nth)
          return Promise.reject(new Error('injected: the function died here'));
        return target.send(command as never);
      };
    },
  });
}

async function delivered(db: DynamoDBDocumentClient, tableName: string, clientId: number) {
  const rows = await queryAll(db, {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.statsPk(clientId) },
    ConsistentRead: true,
  });
  return { rows: rows.length, total: rows.reduce((n, row) => n + Number(row['delivered'] ?? 0), 0) };
}

async function position(db: DynamoDBDocumentClient, tableName: string, shardId: string) {
  const out = await db.send(
    new GetCommand({
      TableName: tableName,
      Key: keys.streamPosition(DAY_COUNTERS_PROJECTION, shardId),
      ConsistentRead: true,
    }),
  );
  return out.Item?.['pos'];
}

describe('the day counters projection under replayed batches (DynamoDB Local)', () => {
  it('counts a batch once after it died between its transactions and was handed over again, whole and bisected', async () => {
    // Prepare
    const { db, tableName } = tableOf(engineContainer({}));
    const clientId = 900_000 + Math.floor(Math.random() * 90_000);
    const shardId = `shardId-replay-${clientId}`;
    const batch = batchOf(clientId);

    // Act 1: the second transaction fails; the first (99 rows) landed with its position.
    const dying = new DynamoDayCountersProjection(crashingAt(db, 2), tableName);
    await expect(dying.apply(shardId, batch)).rejects.toThrow('injected');

    // Assess 1: the position sits on the last record of the first chunk, and exactly its records are counted.
    expect(await position(db, tableName, shardId)).toBe(streamPositionOf(String(5_000_000 + 98)));
    expect(await delivered(db, tableName, clientId)).toEqual({ rows: 99, total: 99 });

    // Act 2: handed over whole, then bisected, then whole again (Lambda's retries, a bisect, a duplicate delivery).
    const projection = new DynamoDayCountersProjection(db, tableName);
    const whole = await projection.apply(shardId, batch);
    await projection.apply(shardId, batch.slice(0, RECORDS / 2));
    await projection.apply(shardId, batch.slice(RECORDS / 2));
    const again = await projection.apply(shardId, batch);

    // Assess 2: every record counted once; the replays wrote nothing.
    expect(whole).toMatchObject({ replayed: 99, applied: RECORDS - 99 });
    expect(again).toEqual({ replayed: RECORDS, applied: 0, rows: 0, transactions: 0, splitsMoved: [] });
    expect(await delivered(db, tableName, clientId)).toEqual({ rows: DAYS, total: RECORDS });
    expect(await position(db, tableName, shardId)).toBe(streamPositionOf(String(5_000_000 + RECORDS - 1)));
  });

  it('counts a batch once when two invocations apply it at the same time', async () => {
    const { db, tableName } = tableOf(engineContainer({}));
    const clientId = 990_000 + Math.floor(Math.random() * 9_000);
    const shardId = `shardId-twice-${clientId}`;
    const batch = batchOf(clientId);
    const projection = new DynamoDayCountersProjection(db, tableName);

    await Promise.all([projection.apply(shardId, batch), projection.apply(shardId, batch)]);

    expect(await delivered(db, tableName, clientId)).toEqual({ rows: DAYS, total: RECORDS });
  });
});
