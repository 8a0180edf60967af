import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { EventRecord } from '../../domain/events/event-record.js';
import type { EventInsertOutcome, EventStore, IdempotencyClaim } from '../../domain/events/event-store.js';
import { stripKeys } from './items.js';
import { keys } from './keys.js';
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
    const item = { ...keys.event(event.client_id, event.id), ...keys.queuedEvent(event.id, event.created_at), ...event };
    if (!idempotency) {
      try {
        await this.db.send(new PutCommand({ TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
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
          new GetCommand({ TableName: this.tableName, Key: keys.idempotency(event.client_id, idempotency.keyHash), ConsistentRead: true }),
        );
        return { kind: 'duplicate', eventId: Number(stored.Item?.['event_id']), requestHash: String(stored.Item?.['request_hash']) };
      }
      if (eventReason?.Code === 'ConditionalCheckFailed') return { kind: 'id_taken' };
      throw error;
    }
  }

  async get(clientId: number, eventId: number): Promise<EventRecord | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.event(clientId, eventId), ConsistentRead: true }));
    return out.Item ? stripKeys<EventRecord>(out.Item) : undefined;
  }

  async listQueuedBefore(before: string, limit: number): Promise<Pick<EventRecord, 'id' | 'client_id'>[]> {
    const pages = await Promise.all(
      Array.from({ length: keys.queuedEventShards }, (_, shard) =>
        this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            IndexName: 'gsi1',
            KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :before',
            ExpressionAttributeValues: { ':pk': keys.queuedEventPk(shard), ':before': before },
            ProjectionExpression: 'id, client_id, gsi1sk',
            Limit: limit,
          }),
        ),
      ),
    );
    // Oldest first across the shards: each shard's oldest `limit`, merged, so no shard starves the others.
    return pages
      .flatMap((p) => p.Items ?? [])
      .sort((a, b) => String(a['gsi1sk']).localeCompare(String(b['gsi1sk'])))
      .slice(0, limit)
      .map((i) => ({ id: Number(i['id']), client_id: Number(i['client_id']) }));
  }
}
