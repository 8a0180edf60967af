import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { FIRST_CLIENT_JOURNEY_ID } from '../../public/journey-rules.js';
import type { JourneyIndex, JourneyRecord, JourneyVersionRecord } from '../../domain/journeys/journey-records.js';
import {
  EMPTY_INDEX,
  type IndexChange,
  type JourneyCount,
  type JourneyStore,
  type JourneySummary,
  type JourneyVersionSummary,
  type PublishWrite,
  type StatusWrite,
  type WriteOutcome,
} from '../../domain/journeys/journey-store.js';
import type { JourneyDraft } from '../../domain/journeys/journey-records.js';
import { batchGetItems } from './batch-get.js';
import { stripKeys } from './items.js';
import { ENTITY, keys } from './keys.js';
import { queryAll } from './query-all.js';
import { createWithNextId, LOST, lostToAnotherWriter } from './next-id-create.js';
import { sendTransaction } from './transactions.js';

type TransactItem = NonNullable<TransactWriteCommand['input']['TransactItems']>[number];

/** A journey's summary on the count item: one attribute per journey, so each write sets its own fields. */
export const summaryAttribute = (journeyId: number): string => `j_${journeyId}`;
const SUMMARY = /^j_(\d+)$/;

const conditionFailed = (error: unknown): boolean =>
  error instanceof TransactionCanceledException &&
  (error.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed');

export const summaryOf = (journey: JourneyRecord): JourneySummary => ({
  id: journey.id,
  name: journey.name,
  ...(journey.description ? { description: journey.description } : {}),
  status: journey.status,
  ...(journey.live_version !== undefined ? { live_version: journey.live_version } : {}),
  updated_at: journey.updated_at,
});

/** The count item as the store reads it: `n`, `next_id` and the summaries by id. */
export function countOf(item: Record<string, unknown> | undefined): JourneyCount {
  const journeys = Object.entries(item ?? {})
    .filter(([name]) => SUMMARY.test(name))
    .map(([, summary]) => summary as JourneySummary)
    .sort((a, b) => a.id - b.id);
  return {
    n: typeof item?.['n'] === 'number' ? item['n'] : 0,
    next_id: typeof item?.['next_id'] === 'number' ? item['next_id'] : FIRST_CLIENT_JOURNEY_ID,
    journeys,
  };
}

const indexOf = (item: Record<string, unknown> | undefined): JourneyIndex =>
  item
    ? { version: Number(item['version']), journeys: (item['journeys'] ?? []) as JourneyIndex['journeys'] }
    : EMPTY_INDEX;

/**
 * Journeys in the table (keys.ts: journey, journey version, journey index, journey count). Every write that changes
 * what the list shows moves the journey's summary on the count item (`j_<id>`) in its own transaction; the index is
 * written whole (a Put conditioned on the `version` read), so event processing reads it in one GetItem.
 */
export class DynamoJourneyStore implements JourneyStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(clientId: number, journeyId: number): Promise<JourneyRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.journey(clientId, journeyId), ConsistentRead: true }),
    );
    return out.Item ? stripKeys<JourneyRecord>(out.Item) : undefined;
  }

  async getWithIndex(clientId: number, journeyId: number): Promise<{ journey?: JourneyRecord; index: JourneyIndex }> {
    const head = keys.journey(clientId, journeyId);
    const items = await batchGetItems(this.db, this.tableName, [head, keys.journeyIndex(clientId)], {
      consistentRead: true,
    });
    const journey = items.find((item) => item['sk'] === head.sk);
    return {
      ...(journey ? { journey: stripKeys<JourneyRecord>(journey) } : {}),
      index: indexOf(items.find((item) => item['sk'] === keys.journeyIndex(clientId).sk)),
    };
  }

  async index(clientId: number): Promise<JourneyIndex> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.journeyIndex(clientId), ConsistentRead: true }),
    );
    return indexOf(out.Item);
  }

  async list(clientId: number): Promise<JourneyCount> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.journeyCount(clientId), ConsistentRead: true }),
    );
    return countOf(out.Item);
  }

  async version(clientId: number, journeyId: number, version: number): Promise<JourneyVersionRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.journeyVersion(clientId, journeyId, version),
        ConsistentRead: true,
      }),
    );
    return out.Item ? stripKeys<JourneyVersionRecord>(out.Item) : undefined;
  }

  async versions(clientId: number, journeyId: number): Promise<JourneyVersionSummary[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: {
        ':pk': keys.journey(clientId, journeyId).pk,
        ':prefix': keys.journeyVersionPrefix(journeyId),
      },
      ExpressionAttributeNames: { '#v': 'version' },
      ProjectionExpression: '#v, published_at, published_by',
      ScanIndexForward: false,
      ConsistentRead: true,
    });
    return items.map((item) => ({
      version: Number(item['version']),
      published_at: String(item['published_at']),
      ...(typeof item['published_by'] === 'number' ? { published_by: item['published_by'] } : {}),
    }));
  }

  async create(
    clientId: number,
    journey: Omit<JourneyRecord, 'id' | 'client_id'>,
    max: number,
  ): Promise<JourneyRecord | 'limit'> {
    const countKey = keys.journeyCount(clientId);
    return createWithNextId({
      what: `Journey create for client ${clientId}`,
      read: () => this.db.send(new GetCommand({ TableName: this.tableName, Key: countKey, ConsistentRead: true })),
      idOf: (read) => (read.Item ? countOf(read.Item).next_id : undefined),
      attempt: async (read) => {
        const count = countOf(read.Item);
        if (count.n >= max) return 'limit' as const;
        const record: JourneyRecord = { ...journey, id: count.next_id, client_id: clientId };
        const command = new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: countKey,
                UpdateExpression: 'SET next_id = :next, #j = :summary ADD n :one',
                // The id read is still the next one, and the limit still holds with whatever archive freed since.
                ConditionExpression: read.Item ? 'next_id = :id AND n < :max' : 'attribute_not_exists(pk)',
                ExpressionAttributeNames: { '#j': summaryAttribute(record.id) },
                ExpressionAttributeValues: {
                  ':next': record.id + 1,
                  ':summary': summaryOf(record),
                  ':one': 1,
                  ...(read.Item ? { ':id': record.id, ':max': max } : {}),
                },
              },
            },
            {
              Put: {
                TableName: this.tableName,
                Item: this.headItem(record),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        });
        try {
          await sendTransaction(this.db, command);
          return record;
        } catch (error) {
          if (!lostToAnotherWriter(error)) throw error;
          return LOST;
        }
      },
    });
  }

  async rename(journey: JourneyRecord, at: string): Promise<WriteOutcome> {
    const j = summaryAttribute(journey.id);
    return this.transact([
      {
        Update: {
          TableName: this.tableName,
          Key: keys.journey(journey.client_id, journey.id),
          UpdateExpression: 'SET #name = :name, description = :description, updated_at = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#name': 'name' },
          ExpressionAttributeValues: { ':name': journey.name, ':description': journey.description ?? '', ':at': at },
        },
      },
      {
        Update: {
          TableName: this.tableName,
          Key: keys.journeyCount(journey.client_id),
          UpdateExpression: 'SET #j.#name = :name, #j.description = :description, #j.updated_at = :at',
          ExpressionAttributeNames: { '#j': j, '#name': 'name' },
          ExpressionAttributeValues: { ':name': journey.name, ':description': journey.description ?? '', ':at': at },
        },
      },
    ]);
  }

  async saveDraft(
    journey: JourneyRecord,
    draft: JourneyDraft,
    draftVersion: number,
    at: string,
  ): Promise<WriteOutcome> {
    return this.transact([
      {
        Update: {
          TableName: this.tableName,
          Key: keys.journey(journey.client_id, journey.id),
          UpdateExpression: 'SET draft = :draft, draft_version = :next, updated_at = :at',
          ConditionExpression: 'draft_version = :dv AND #status <> :archived',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':draft': draft,
            ':next': draftVersion + 1,
            ':dv': draftVersion,
            ':archived': 'archived',
            ':at': at,
          },
        },
      },
      this.summaryUpdate(journey, { updated_at: at }),
    ]);
  }

  async publish(write: PublishWrite): Promise<WriteOutcome> {
    const { journey, version, at } = write;
    const items: TransactItem[] = [
      {
        Put: {
          TableName: this.tableName,
          Item: { ...keys.journeyVersion(journey.client_id, journey.id, version.version), ...version },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: this.tableName,
          Key: keys.journey(journey.client_id, journey.id),
          UpdateExpression: 'SET #status = :live, live_version = :v, updated_at = :at',
          ConditionExpression: 'draft_version = :dv AND #status <> :archived',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':live': journey.status,
            ':v': version.version,
            ':at': at,
            ':dv': write.draftVersion,
            ':archived': 'archived',
          },
        },
      },
      this.indexPut(journey.client_id, write.index),
      this.summaryUpdate(journey, { status: journey.status, live_version: version.version, updated_at: at }),
      // A template the version sends must not be deleted between validation and this write.
      ...write.templateIds.map(
        (templateId): TransactItem => ({
          ConditionCheck: {
            TableName: this.tableName,
            Key: keys.template(journey.client_id, templateId),
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleted_at)',
          },
        }),
      ),
      // Nor the segment its trigger watches (a segment's delete checks the index the other way round).
      ...write.segmentIds.map(
        (segmentId): TransactItem => ({
          ConditionCheck: {
            TableName: this.tableName,
            Key: keys.segment(journey.client_id, segmentId),
            ConditionExpression: 'attribute_exists(pk)',
          },
        }),
      ),
    ];
    if (write.settings) {
      const { record, expectedVersion } = write.settings;
      items.push({
        Put: {
          TableName: this.tableName,
          Item: { ...keys.settings(record.client_id), ...record },
          ...(expectedVersion === undefined
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : {
                ConditionExpression: '#v = :v',
                ExpressionAttributeNames: { '#v': 'version' },
                ExpressionAttributeValues: { ':v': expectedVersion },
              }),
        },
      });
    }
    return this.transact(items);
  }

  async changeStatus(write: StatusWrite): Promise<WriteOutcome> {
    const { journey, from, to, at } = write;
    const archiving = to === 'archived';
    const j = summaryAttribute(journey.id);
    return this.transact([
      {
        Update: {
          TableName: this.tableName,
          Key: keys.journey(journey.client_id, journey.id),
          UpdateExpression: 'SET #status = :to, updated_at = :at',
          ConditionExpression: '#status = :from',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':to': to, ':from': from, ':at': at },
        },
      },
      {
        Update: {
          TableName: this.tableName,
          Key: keys.journeyCount(journey.client_id),
          // An archived journey frees its place in the plan's count.
          UpdateExpression: `SET #j.#status = :to, #j.updated_at = :at${archiving ? ' ADD n :minus' : ''}`,
          ExpressionAttributeNames: { '#j': j, '#status': 'status' },
          ExpressionAttributeValues: { ':to': to, ':at': at, ...(archiving ? { ':minus': -1 } : {}) },
        },
      },
      ...(write.index ? [this.indexPut(journey.client_id, write.index)] : []),
    ]);
  }

  async delete(journey: JourneyRecord): Promise<WriteOutcome> {
    return this.transact([
      {
        Delete: {
          TableName: this.tableName,
          Key: keys.journey(journey.client_id, journey.id),
          ConditionExpression: '#status = :draft AND attribute_not_exists(live_version)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':draft': 'draft' },
        },
      },
      {
        Update: {
          TableName: this.tableName,
          Key: keys.journeyCount(journey.client_id),
          UpdateExpression: 'REMOVE #j ADD n :minus',
          ExpressionAttributeNames: { '#j': summaryAttribute(journey.id) },
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
    ]);
  }

  private headItem(record: JourneyRecord): Record<string, unknown> {
    return { ...keys.journey(record.client_id, record.id), entity: ENTITY.journey, ...record };
  }

  /** The index written whole, if it is still at the version read (absent when that was 0). */
  private indexPut(clientId: number, change: IndexChange): TransactItem {
    return {
      Put: {
        TableName: this.tableName,
        Item: { ...keys.journeyIndex(clientId), version: change.readVersion + 1, journeys: change.journeys },
        ...(change.readVersion === 0
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : {
              ConditionExpression: '#v = :v',
              ExpressionAttributeNames: { '#v': 'version' },
              ExpressionAttributeValues: { ':v': change.readVersion },
            }),
      },
    };
  }

  /** Sets some fields of the journey's summary on the count item. */
  private summaryUpdate(journey: JourneyRecord, fields: Partial<JourneySummary>): TransactItem {
    const entries = Object.entries(fields);
    return {
      Update: {
        TableName: this.tableName,
        Key: keys.journeyCount(journey.client_id),
        UpdateExpression: `SET ${entries.map((_, i) => `#j.#f${i} = :f${i}`).join(', ')}`,
        ExpressionAttributeNames: {
          '#j': summaryAttribute(journey.id),
          ...Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
        },
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:f${i}`, value])),
      },
    };
  }

  /** One transaction; `stale` when a condition failed (nothing written). */
  private async transact(items: TransactItem[]): Promise<WriteOutcome> {
    try {
      await sendTransaction(this.db, new TransactWriteCommand({ TransactItems: items }));
      return 'done';
    } catch (error) {
      if (conditionFailed(error)) return 'stale';
      throw error;
    }
  }
}
