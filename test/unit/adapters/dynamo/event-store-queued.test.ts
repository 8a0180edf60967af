import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { DynamoEventStore } from '../../../../shared/adapters/dynamo/event-store.js';
import type { QueuedEventPage, QueuedEventRef } from '../../../../shared/domain/events/event-store.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
afterEach(() => dbMock.reset());

const TABLE = 'email-lifecycle';
const BEFORE = '2026-01-15T10:00:00.000Z';
const store = new DynamoEventStore(db, TABLE);

interface Entry {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  id: number;
  client_id: number;
}

const at = (second: number) => new Date(Date.parse('2026-01-15T09:00:00.000Z') + second * 1000).toISOString();
const entry = (id: number, createdAt: string): Entry => ({
  pk: `EVENT#7#${id}`,
  sk: 'EVENT',
  gsi1pk: `EVENTS#QUEUED#${id % 4}`,
  gsi1sk: createdAt,
  id,
  client_id: 7,
});

/**
 * gsi1 as DynamoDB serves it: per key value, sorted by gsi1sk (ties in a fixed order), `Limit` entries after the
 * ExclusiveStartKey, and a LastEvaluatedKey whenever the limit was reached (even with nothing after: DynamoDB does so).
 */
function serveIndex(entries: Entry[]): void {
  dbMock.on(QueryCommand).callsFake((input: QueryCommandInput) => {
    const values = input.ExpressionAttributeValues as { ':pk': string; ':before': string };
    const shard = entries
      .filter((e) => e.gsi1pk === values[':pk'] && e.gsi1sk < values[':before'])
      .sort((a, b) => (a.gsi1sk < b.gsi1sk ? -1 : a.gsi1sk > b.gsi1sk ? 1 : a.id - b.id));
    const start = input.ExclusiveStartKey ? shard.findIndex((e) => e.pk === input.ExclusiveStartKey!['pk']) + 1 : 0;
    const items = shard
      .slice(start, start + input.Limit!)
      .map(({ pk, sk, gsi1sk, id, client_id }) => ({ pk, sk, gsi1sk, id, client_id }));
    const last = items.at(-1);
    return items.length === input.Limit && last
      ? { Items: items, LastEvaluatedKey: { pk: last.pk, sk: last.sk, gsi1pk: values[':pk'], gsi1sk: last.gsi1sk } }
      : { Items: items };
  });
}

async function readAll(limit: number): Promise<{ pages: QueuedEventPage[]; events: QueuedEventRef[] }> {
  const pages: QueuedEventPage[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.listQueuedBefore(BEFORE, limit, cursor);
    pages.push(page);
    cursor = page.cursor;
  } while (cursor !== undefined);
  return { pages, events: pages.flatMap((p) => p.events) };
}

const queryInputs = () => dbMock.commandCalls(QueryCommand).map((c) => c.args[0].input);
const inOrder = (entries: Entry[]) =>
  [...entries]
    .sort((a, b) => (a.gsi1sk < b.gsi1sk ? -1 : a.gsi1sk > b.gsi1sk ? 1 : 0))
    .map((e) => ({ id: e.id, client_id: 7 }));

describe('DynamoEventStore.listQueuedBefore', () => {
  it('reads a quarter of the page from each of the 4 queued-index shards, in parallel, from their start', async () => {
    // Prepare
    serveIndex([]);
    // Act
    const page = await store.listQueuedBefore(BEFORE, 1_000);
    // Assess
    expect(page).toEqual({ events: [] });
    expect(queryInputs()).toEqual(
      [0, 1, 2, 3].map((shard) => ({
        TableName: TABLE,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :before',
        ExpressionAttributeValues: { ':pk': `EVENTS#QUEUED#${shard}`, ':before': BEFORE },
        ProjectionExpression: 'pk, sk, gsi1sk, id, client_id',
        Limit: 250,
      })),
    );
  });

  it('goes on in each shard after the last entry a page took from it, holds back what is newer than a shard not read to its end, and stops reading an empty shard', async () => {
    // Prepare: shard 1 holds the two oldest; shard 0 four newer ones; shards 2 and 3 nothing.
    serveIndex([
      entry(1, at(1)),
      entry(5, at(2)),
      entry(4, at(3)),
      entry(8, at(4)),
      entry(12, at(5)),
      entry(16, at(6)),
    ]);
    const pages: QueuedEventPage[] = [];
    const inputs: unknown[][] = [];
    // Act
    let cursor: string | undefined;
    do {
      dbMock.resetHistory();
      const page = await store.listQueuedBefore(BEFORE, 8, cursor);
      pages.push(page);
      inputs.push(queryInputs().map((i) => [i.ExpressionAttributeValues?.[':pk'], i.Limit, i.ExclusiveStartKey]));
      cursor = page.cursor;
    } while (cursor !== undefined);
    // Assess: page 1 stops at shard 1's last read entry (at 2 s), since shard 1 may hold more up to shard 0's 4 s.
    expect(pages.map((p) => p.events.map((e) => e.id))).toEqual([[1, 5], [4, 8, 12, 16], []]);
    expect(pages[0]?.events).toEqual([
      { id: 1, client_id: 7, created_at: at(1) },
      { id: 5, client_id: 7, created_at: at(2) },
    ]);
    const keyAfter = (id: number, shard: number, second: number) => ({
      pk: `EVENT#7#${id}`,
      sk: 'EVENT',
      gsi1pk: `EVENTS#QUEUED#${shard}`,
      gsi1sk: at(second),
    });
    expect(inputs).toEqual([
      [0, 1, 2, 3].map((shard) => [`EVENTS#QUEUED#${shard}`, 2, undefined]),
      [
        ['EVENTS#QUEUED#0', 4, undefined],
        ['EVENTS#QUEUED#1', 4, keyAfter(5, 1, 2)],
      ],
      [['EVENTS#QUEUED#0', 8, keyAfter(16, 0, 6)]],
    ]);
  });

  it.each([
    { name: 'spread over the shards', shardOf: (i: number) => i },
    { name: 'all in one shard', shardOf: () => 2 },
    { name: 'in two shards', shardOf: (i: number) => (i % 3 === 0 ? 1 : 3) },
  ])(
    'answers every queued event once, oldest first across pages, at most `limit` a page ($name)',
    async ({ shardOf }) => {
      // Prepare: 203 events, created_at shuffled and sometimes equal.
      const entries = Array.from({ length: 203 }, (_, i) => entry(4 * i + (shardOf(i) % 4) + 4, at((i * 37) % 101)));
      serveIndex(entries);
      // Act
      const { pages, events } = await readAll(7);
      // Assess
      expect(pages.every((p) => p.events.length <= 7)).toBe(true);
      expect(events.map((e) => e.id).sort((a, b) => a - b)).toEqual(entries.map((e) => e.id).sort((a, b) => a - b));
      expect(events.map((e) => e.id)).toHaveLength(new Set(events.map((e) => e.id)).size);
      const createdAt = new Map(entries.map((e) => [e.id, e.gsi1sk]));
      const times = events.map((e) => createdAt.get(e.id)!);
      expect(times).toEqual([...times].sort());
      expect(inOrder(entries).map((e) => createdAt.get(e.id))).toEqual(times);
    },
  );

  it('refuses a cursor that is not one of this index', async () => {
    // Prepare
    serveIndex([]);
    // Act
    const reading = store.listQueuedBefore(BEFORE, 10, Buffer.from('[{}]').toString('base64url'));
    // Assess
    await expect(reading).rejects.toThrow('not a queued-event cursor');
    expect(queryInputs()).toEqual([]);
  });
});
