import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { EventRecord } from '../../domain/events/event-record.js';
import type {
  EventInsertOutcome,
  EventStore,
  IdempotencyClaim,
  QueuedEventPage,
} from '../../domain/events/event-store.js';
import { stripKeys } from './items.js';
import { ENTITY, keys } from './keys.js';
import { sendTransaction } from './transactions.js';

/**
 * Events under their own partition keys (docs/capacity.md). A queued event also carries a sparse gsi1 entry
 * (`EVENTS#QUEUED#<shard>` / created_at), removed when it is processed, so the sweeper finds stragglers cheaply.
 */
export class DynamoEventStore implements EventStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async insert(event: EventRecord, idempotency?: IdempotencyClaim): Promise<EventInsertOutcome> {
    const item = eventItem(event);
    if (!idempotency) {
      try {
        await this.db.send(
          new PutCommand({ TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
        );
        return { kind: 'inserted' };
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return { kind: 'id_taken' };
        throw error;
      }
    }
    const lock = {
      ...keys.idempotency(event.client_id, idempotency.keyHash),
      event_id: event.id,
      request_hash: idempotency.requestHash,
      created_at: event.created_at,
      expires_at: idempotency.expiresAt,
    };
    try {
      await sendTransaction(
        this.db,
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
            {
              Put: {
                TableName: this.tableName,
                Item: lock,
                ConditionExpression: 'attribute_not_exists(pk)',
                // The winner's lock comes back with the cancellation: a replay needs no extra read of it.
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            },
          ],
        }),
      );
      return { kind: 'inserted' };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const [eventReason, lockReason] = error.CancellationReasons ?? [];
      if (lockReason?.Code === 'ConditionalCheckFailed') {
        const old = lockReason.Item as Record<string, { N?: string; S?: string }> | undefined;
        if (old?.['event_id']?.N && old['request_hash']?.S) {
          return { kind: 'duplicate', eventId: Number(old['event_id'].N), requestHash: old['request_hash'].S };
        }
        const stored = await this.db.send(
          new GetCommand({
            TableName: this.tableName,
            Key: keys.idempotency(event.client_id, idempotency.keyHash),
            ConsistentRead: true,
          }),
        );
        return {
          kind: 'duplicate',
          eventId: Number(stored.Item?.['event_id']),
          requestHash: String(stored.Item?.['request_hash']),
        };
      }
      if (eventReason?.Code === 'ConditionalCheckFailed') return { kind: 'id_taken' };
      throw error;
    }
  }

  async get(clientId: number, eventId: number): Promise<EventRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.event(clientId, eventId), ConsistentRead: true }),
    );
    return out.Item ? stripKeys<EventRecord>(out.Item) : undefined;
  }

  /**
   * A k-way merge of the queued-event index's shards, each read from where the cursor left it: a page reads about
   * `limit` entries (⌈limit / open shards⌉ from each, in parallel) and answers those up to the lowest last-read
   * created_at among the shards that have more (the watermark), so pages come oldest first across the shards; an
   * entry above the watermark is read again by the next page. Entries are ≈ 2 KB (gsi1 projects ALL): 250 a shard is
   * ≈ 500 KB, under Query's 1 MB page.
   */
  async listQueuedBefore(before: string, limit: number, cursor?: string): Promise<QueuedEventPage> {
    const positions = cursor
      ? decodeQueuedCursor(cursor)
      : Array.from({ length: keys.queuedEventShards }, (): ShardPosition => ({}));
    const open = positions.filter((p) => p !== 'done').length;
    if (open === 0) return { events: [] };
    const perShard = Math.ceil(limit / open);
    const reads = await Promise.all(
      positions.map(async (position, shard) => {
        if (position === 'done') return undefined;
        const out = await this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            IndexName: 'gsi1',
            KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :before',
            ExpressionAttributeValues: { ':pk': keys.queuedEventPk(shard), ':before': before },
            ProjectionExpression: 'pk, sk, gsi1sk, id, client_id',
            Limit: perShard,
            ...(position.after ? { ExclusiveStartKey: position.after } : {}),
          }),
        );
        return { shard, items: (out.Items ?? []) as QueuedIndexEntry[], more: out.LastEvaluatedKey !== undefined };
      }),
    );
    const watermark = reads.reduce<string | undefined>((low, read) => {
      const last = read?.more ? read.items.at(-1)?.gsi1sk : undefined;
      return last !== undefined && (low === undefined || last < low) ? last : low;
    }, undefined);
    // Stable sort: entries of one shard keep the index's order, so what a page takes of a shard is a prefix of it.
    const taken = reads
      .flatMap((read) => (read ? read.items.map((item) => ({ shard: read.shard, item })) : []))
      .filter(({ item }) => watermark === undefined || item.gsi1sk <= watermark)
      .sort((a, b) => (a.item.gsi1sk < b.item.gsi1sk ? -1 : a.item.gsi1sk > b.item.gsi1sk ? 1 : 0))
      .slice(0, limit);
    const next = positions.map((position, shard): ShardPosition => {
      const read = reads[shard];
      if (position === 'done' || !read) return 'done';
      const count = taken.filter((t) => t.shard === shard).length;
      if (count === read.items.length && !read.more) return 'done';
      const last = read.items[count - 1];
      return last
        ? { after: { pk: last.pk, sk: last.sk, gsi1pk: keys.queuedEventPk(shard), gsi1sk: last.gsi1sk } }
        : position;
    });
    const events = taken.map(({ item }) => ({
      id: Number(item.id),
      client_id: Number(item.client_id),
      created_at: item.gsi1sk,
    }));
    return next.every((p) => p === 'done') ? { events } : { events, cursor: encodeQueuedCursor(next) };
  }
}

/** The item `insert` writes for an event: its keys, its queued-index entry and the record (bench seeding uses it too). */
export function eventItem(event: EventRecord): Record<string, unknown> {
  return {
    ...keys.event(event.client_id, event.id),
    entity: ENTITY.event,
    ...keys.queuedEvent(event.id, event.created_at),
    ...event,
  };
}

interface QueuedIndexEntry {
  pk: string;
  sk: string;
  gsi1sk: string;
  id: number;
  client_id: number;
}

/** Where a page left one index shard: after this entry's key (absent: from the start), or nothing more there. */
type ShardPosition = { after?: Record<string, string> } | 'done';

const encodeQueuedCursor = (positions: ShardPosition[]): string =>
  Buffer.from(JSON.stringify(positions)).toString('base64url');

function decodeQueuedCursor(cursor: string): ShardPosition[] {
  const positions: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!Array.isArray(positions) || positions.length !== keys.queuedEventShards) {
    throw new Error('DynamoEventStore: not a queued-event cursor of this index');
  }
  return positions as ShardPosition[];
}
