import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type {
  BackfillProgress,
  ContactIdPage,
  IndexWrite,
  PreviewSample,
  SegmentBroadcastUses,
  SegmentCount,
  SegmentCreate,
  SegmentGauge,
  SegmentMemberEntry,
  SegmentRecord,
  SegmentStore,
  SegmentSummary,
  SegmentUpdate,
  SegmentWriteOutcome,
  SegmentWriteRead,
  StaleBackfill,
  StoredSegmentIndex,
} from '../../domain/segments/segment-store.js';
import type { ContactRecord } from '../../domain/contacts/contact-store.js';
import { batchGetItems } from './batch-get.js';
import { engagementKeysOf, engagementOf, sourceHeadKey } from './engagement-facts.js';
import { stripKeys } from './items.js';
import { ENTITY, keys, type ItemKey } from './keys.js';
import { countersOf } from './membership-store.js';
import { TABLE_KEYS } from './table-definition.js';
import { journeyIndexUnchanged } from './journey-index-check.js';
import { sendTransaction } from './transactions.js';

type Item = Record<string, unknown>;
type TransactItem = NonNullable<TransactWriteCommand['input']['TransactItems']>[number];

/** A segment's summary on the count item: one attribute per segment, so each write sets its own. */
export const segmentSummaryAttribute = (segmentId: number): string => `s_${segmentId}`;
const SUMMARY = /^s_(\d+)$/;

const keyOf = (k: ItemKey) => `${k.pk}\u0000${k.sk}`;

const conditionFailed = (error: unknown): boolean =>
  error instanceof TransactionCanceledException &&
  (error.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed');

export const segmentSummaryOf = (segment: SegmentRecord): SegmentSummary => ({
  id: segment.id,
  name: segment.name,
  ...(segment.description ? { description: segment.description } : {}),
  status: segment.status,
  version: segment.version,
  updated_at: segment.updated_at,
});

function countOf(item: Item | undefined): SegmentCount | undefined {
  if (!item) return undefined;
  const segments = Object.entries(item)
    .filter(([name]) => SUMMARY.test(name))
    .map(([, summary]) => summary as SegmentSummary)
    .sort((a, b) => a.id - b.id);
  return { n: Number(item['n'] ?? 0), next_id: Number(item['next_id'] ?? 1), segments };
}

function indexOf(item: Item | undefined): StoredSegmentIndex {
  if (!item) return { version: 0, segments: [], specs: [], watched: [] };
  return {
    version: Number(item['version'] ?? 0),
    segments: (item['segments'] ?? []) as StoredSegmentIndex['segments'],
    specs: (item['specs'] ?? []) as StoredSegmentIndex['specs'],
    watched: (item['watched'] ?? []) as StoredSegmentIndex['watched'],
  };
}

function usesOf(item: Item): SegmentBroadcastUses {
  const ids = item['b'] instanceof Set ? [...(item['b'] as Set<number>)].map(Number) : [];
  return { broadcastIds: ids.sort((a, b) => a - b), n: Number(item['n'] ?? 0) };
}

function progressOf(item: Item): BackfillProgress {
  return {
    shard: Number(item['sk']),
    version: Number(item['version'] ?? 0),
    after: Number(item['after'] ?? 0),
    scanned: Number(item['scanned'] ?? 0),
    matched: Number(item['matched'] ?? 0),
    beat_at: String(item['beat_at'] ?? ''),
    done: item['done'] === true,
  };
}

const gaugeOf = (item: Item | undefined): SegmentGauge | undefined =>
  item
    ? {
        n: Number(item['n'] ?? 0),
        ...(typeof item['counted_at'] === 'string' ? { counted_at: item['counted_at'] } : {}),
      }
    : undefined;

/**
 * Segments in the table (keys.ts: segment, segment count, segment index, backfill progress, member entries, the
 * segment gauge). Each write is one transaction: the head, its summary on the count item (`s_<id>`), and, when the
 * definition moves, the index written whole (a Put conditioned on the `version` read) with the backfill's progress
 * items. A building head carries the sparse SEGJOB gsi3 entry the stale-backfill sweep reads.
 */
export class DynamoSegmentStore implements SegmentStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async list(clientId: number): Promise<{ count?: SegmentCount; gauges: Map<number, SegmentGauge> }> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.segmentCount(clientId), ConsistentRead: true }),
    );
    const count = countOf(out.Item);
    const gauges = new Map<number, SegmentGauge>();
    if (!count || count.segments.length === 0) return { ...(count ? { count } : {}), gauges };
    const items = await batchGetItems(
      this.db,
      this.tableName,
      count.segments.map((s) => keys.statsSegmentGauge(clientId, s.id)),
    );
    for (const item of items) {
      const id = Number(/^NOW#S(\d+)$/.exec(String(item['sk']))?.[1]);
      const gauge = gaugeOf(item);
      if (gauge) gauges.set(id, gauge);
    }
    return { count, gauges };
  }

  async segmentIds(clientId: number): Promise<number[]> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.segmentCount(clientId), ConsistentRead: true }),
    );
    return (countOf(out.Item)?.segments ?? []).map((s) => s.id);
  }

  async get(
    clientId: number,
    segmentId: number,
  ): Promise<{ segment?: SegmentRecord; gauge?: SegmentGauge; progress: BackfillProgress[] }> {
    const head = keys.segment(clientId, segmentId);
    const gauge = keys.statsSegmentGauge(clientId, segmentId);
    const progressKeys = Array.from({ length: keys.contactShards }, (_, shard) =>
      keys.segmentBackfill(clientId, segmentId, shard),
    );
    const items = await batchGetItems(this.db, this.tableName, [head, gauge, ...progressKeys], {
      consistentRead: true,
    });
    const byKey = new Map(items.map((item) => [keyOf(item as unknown as ItemKey), item]));
    const headItem = byKey.get(keyOf(head));
    const gaugeItem = gaugeOf(byKey.get(keyOf(gauge)));
    return {
      ...(headItem ? { segment: stripKeys<SegmentRecord>(headItem) } : {}),
      ...(gaugeItem ? { gauge: gaugeItem } : {}),
      progress: progressKeys.flatMap((k) => {
        const item = byKey.get(keyOf(k));
        return item ? [progressOf(item)] : [];
      }),
    };
  }

  async readForWrite(clientId: number, segmentId?: number): Promise<SegmentWriteRead> {
    const count = keys.segmentCount(clientId);
    const index = keys.segmentIndex(clientId);
    const head = segmentId === undefined ? undefined : keys.segment(clientId, segmentId);
    const uses = segmentId === undefined ? undefined : keys.segmentBroadcastUses(clientId, segmentId);
    const items = await batchGetItems(
      this.db,
      this.tableName,
      head && uses ? [count, index, head, uses] : [count, index],
      { consistentRead: true },
    );
    const byKey = new Map(items.map((item) => [keyOf(item as unknown as ItemKey), item]));
    const countRead = countOf(byKey.get(keyOf(count)));
    const headItem = head && byKey.get(keyOf(head));
    const usesItem = uses && byKey.get(keyOf(uses));
    return {
      ...(countRead ? { count: countRead } : {}),
      index: indexOf(byKey.get(keyOf(index))),
      ...(headItem ? { segment: stripKeys<SegmentRecord>(headItem) } : {}),
      ...(usesItem ? { broadcastUses: usesOf(usesItem) } : {}),
    };
  }

  async markBroadcastUse(clientId: number, segmentId: number, broadcastId: number): Promise<boolean> {
    const outcome = await this.transact([
      {
        ConditionCheck: {
          TableName: this.tableName,
          Key: keys.segment(clientId, segmentId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      {
        Update: {
          TableName: this.tableName,
          Key: keys.segmentBroadcastUses(clientId, segmentId),
          UpdateExpression: 'ADD #b :bid, #n :one',
          ExpressionAttributeNames: { '#b': 'b', '#n': 'n' },
          ExpressionAttributeValues: { ':bid': new Set([broadcastId]), ':one': 1 },
        },
      },
    ]);
    return outcome === 'done';
  }

  async create(write: SegmentCreate): Promise<SegmentWriteOutcome | 'limit'> {
    const { segment, countRead, max } = write;
    if ((countRead?.n ?? 0) >= max) return 'limit';
    const items: TransactItem[] = [
      {
        Update: {
          TableName: this.tableName,
          Key: keys.segmentCount(segment.client_id),
          UpdateExpression: 'SET next_id = :next, #s = :summary ADD #n :one',
          // The id read is still the next one and the limit still holds with whatever a delete freed since.
          ConditionExpression: countRead ? 'next_id = :id AND #n < :max' : 'attribute_not_exists(pk)',
          ExpressionAttributeNames: { '#s': segmentSummaryAttribute(segment.id), '#n': 'n' },
          ExpressionAttributeValues: {
            ':next': segment.id + 1,
            ':summary': segmentSummaryOf(segment),
            ':one': 1,
            ...(countRead ? { ':id': segment.id, ':max': max } : {}),
          },
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: this.headItem(segment),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      this.indexPut(segment.client_id, write.index),
      ...this.progressPuts(segment, write.shards),
    ];
    return this.transact(items);
  }

  async update(write: SegmentUpdate): Promise<SegmentWriteOutcome> {
    const { segment } = write;
    const items: TransactItem[] = [
      {
        Put: {
          TableName: this.tableName,
          Item: this.headItem(segment),
          ConditionExpression: '#v = :read',
          ExpressionAttributeNames: { '#v': 'version' },
          ExpressionAttributeValues: { ':read': write.readVersion },
        },
      },
      this.summaryUpdate(segment),
      ...(write.rebuild
        ? [this.indexPut(segment.client_id, write.rebuild.index), ...this.progressPuts(segment, write.rebuild.shards)]
        : []),
    ];
    return this.transact(items);
  }

  async delete(
    segment: SegmentRecord,
    readVersion: number,
    index: IndexWrite,
    usesRead = 0,
    journeyIndexVersion?: number,
  ): Promise<SegmentWriteOutcome> {
    const clientId = segment.client_id;
    return this.transact([
      {
        // A broadcast scheduled to it after the read moved `n`: the delete is refused and read again.
        Delete: {
          TableName: this.tableName,
          Key: keys.segmentBroadcastUses(clientId, segment.id),
          ConditionExpression: 'attribute_not_exists(#n) OR #n = :n',
          ExpressionAttributeNames: { '#n': 'n' },
          ExpressionAttributeValues: { ':n': usesRead },
        },
      },
      {
        Delete: {
          TableName: this.tableName,
          Key: keys.segment(clientId, segment.id),
          ConditionExpression: '#v = :read',
          ExpressionAttributeNames: { '#v': 'version' },
          ExpressionAttributeValues: { ':read': readVersion },
        },
      },
      {
        Update: {
          TableName: this.tableName,
          Key: keys.segmentCount(clientId),
          UpdateExpression: 'REMOVE #s ADD #n :minus',
          ConditionExpression: 'attribute_exists(#s)',
          ExpressionAttributeNames: { '#s': segmentSummaryAttribute(segment.id), '#n': 'n' },
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
      this.indexPut(clientId, index),
      ...Array.from({ length: keys.contactShards }, (_, shard) => ({
        Delete: { TableName: this.tableName, Key: keys.segmentBackfill(clientId, segment.id, shard) },
      })),
      // A journey published since the index was read may start on this segment.
      ...(journeyIndexVersion === undefined
        ? []
        : [journeyIndexUnchanged(this.tableName, clientId, journeyIndexVersion)]),
    ]);
  }

  async contactPage(clientId: number, shard: number, after: number, limit: number): Promise<ContactIdPage> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: TABLE_KEYS.gsi1.name,
        KeyConditionExpression: '#gpk = :pk AND #gsk > :after',
        ExpressionAttributeNames: {
          '#gpk': TABLE_KEYS.gsi1.partitionKey,
          '#gsk': TABLE_KEYS.gsi1.sortKey,
          '#id': 'id',
        },
        ExpressionAttributeValues: {
          ':pk': keys.contactListingPk(clientId, shard),
          ':after': keys.contactListing(clientId, after).gsi1sk,
        },
        ProjectionExpression: '#id',
        Limit: limit,
      }),
    );
    return { ids: (out.Items ?? []).map((item) => Number(item['id'])), last: !out.LastEvaluatedKey };
  }

  async progress(clientId: number, segmentId: number): Promise<BackfillProgress[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.segmentBackfill(clientId, segmentId, 0).pk },
        ConsistentRead: true,
      }),
    );
    return (out.Items ?? []).map(progressOf);
  }

  async recordPage(clientId: number, segmentId: number, prevAfter: number, next: BackfillProgress): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.segmentBackfill(clientId, segmentId, next.shard),
          UpdateExpression: 'SET #a = :after, #sc = :scanned, #m = :matched, #b = :beat, #d = :done',
          ConditionExpression: '#v = :v AND #a = :prev AND #d = :false',
          ExpressionAttributeNames: {
            '#a': 'after',
            '#sc': 'scanned',
            '#m': 'matched',
            '#b': 'beat_at',
            '#d': 'done',
            '#v': 'version',
          },
          ExpressionAttributeValues: {
            ':after': next.after,
            ':scanned': next.scanned,
            ':matched': next.matched,
            ':beat': next.beat_at,
            ':done': next.done,
            ':v': next.version,
            ':prev': prevAfter,
            ':false': false,
          },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async finishBackfill(clientId: number, segmentId: number, version: number, at: string): Promise<boolean> {
    const outcome = await this.transact([
      {
        Update: {
          TableName: this.tableName,
          Key: keys.segment(clientId, segmentId),
          UpdateExpression: 'SET #st = :ready, backfill.finished_at = :at REMOVE gsi3pk, gsi3sk',
          ConditionExpression: '#v = :v AND #st = :building',
          ExpressionAttributeNames: { '#st': 'status', '#v': 'version' },
          ExpressionAttributeValues: { ':ready': 'ready', ':building': 'building', ':v': version, ':at': at },
        },
      },
      {
        Update: {
          TableName: this.tableName,
          Key: keys.segmentCount(clientId),
          UpdateExpression: 'SET #s.#st = :ready',
          ConditionExpression: 'attribute_exists(#s)',
          ExpressionAttributeNames: { '#s': segmentSummaryAttribute(segmentId), '#st': 'status' },
          ExpressionAttributeValues: { ':ready': 'ready' },
        },
      },
    ]);
    return outcome === 'done';
  }

  async staleBackfills(before: string, limit: number): Promise<StaleBackfill[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: TABLE_KEYS.gsi3.name,
        KeyConditionExpression: '#gpk = :pk AND #gsk < :before',
        ExpressionAttributeNames: { '#gpk': TABLE_KEYS.gsi3.partitionKey, '#gsk': TABLE_KEYS.gsi3.sortKey },
        ExpressionAttributeValues: { ':pk': keys.segmentJobPk, ':before': before },
        Limit: limit,
      }),
    );
    return (out.Items ?? []).flatMap((item) => {
      const job = keys.segmentJobOf(String(item[TABLE_KEYS.gsi3.sortKey]));
      return job ? [{ client_id: job.client_id, segment_id: job.segment_id }] : [];
    });
  }

  async touchBackfill(clientId: number, segmentId: number, version: number, at: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.segment(clientId, segmentId),
          UpdateExpression: 'SET gsi3sk = :sk',
          ConditionExpression: '#v = :v AND #st = :building',
          ExpressionAttributeNames: { '#v': 'version', '#st': 'status' },
          ExpressionAttributeValues: {
            ':sk': keys.segmentJobEntry(clientId, segmentId, at).gsi3sk,
            ':v': version,
            ':building': 'building',
          },
        }),
      );
    } catch (error) {
      // Finished or redefined meanwhile: nothing to move.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async members(
    clientId: number,
    segmentId: number,
    after: number,
    limit: number,
  ): Promise<{ members: SegmentMemberEntry[]; nextAfter?: number }> {
    const afterSk = keys.segmentMember(clientId, segmentId, after).sk;
    const shards = await Promise.all(
      Array.from({ length: keys.segmentMemberShards }, async (_, shard) => {
        const out = await this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: 'pk = :pk AND sk > :after',
            ExpressionAttributeValues: { ':pk': keys.segmentMemberPk(clientId, segmentId, shard), ':after': afterSk },
            Limit: limit,
          }),
        );
        const stoppedAt = out.LastEvaluatedKey ? Number(out.LastEvaluatedKey['sk']) : undefined;
        const members = (out.Items ?? []).map((item) => ({ contact_id: Number(item['sk']), at: String(item['at']) }));
        return { members, stoppedAt };
      }),
    );
    return mergeShards(shards, limit);
  }

  async memberPage(
    clientId: number,
    segmentId: number,
    shard: number,
    after: number,
    limit: number,
  ): Promise<ContactIdPage> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk > :after',
        ExpressionAttributeValues: {
          ':pk': keys.segmentMemberPk(clientId, segmentId, shard),
          ':after': keys.segmentMember(clientId, segmentId, after).sk,
        },
        ProjectionExpression: 'sk',
        ConsistentRead: true,
        Limit: limit,
      }),
    );
    return { ids: (out.Items ?? []).map((item) => Number(item['sk'])), last: !out.LastEvaluatedKey };
  }

  async existingSources(clientId: number, sources: readonly string[]): Promise<Set<string>> {
    const heads = sources.flatMap((source) => {
      const key = sourceHeadKey(clientId, source);
      return key ? [{ source, key }] : [];
    });
    if (heads.length === 0) return new Set();
    const items = await batchGetItems(
      this.db,
      this.tableName,
      heads.map((h) => h.key),
      { attributes: ['pk'] },
    );
    const found = new Set(items.map((item) => keyOf(item as unknown as ItemKey)));
    return new Set(heads.filter((h) => found.has(keyOf(h.key))).map((h) => h.source));
  }

  async previewSample(
    clientId: number,
    limit: number,
    withCounters: boolean,
    sources: readonly string[] = [],
  ): Promise<PreviewSample> {
    const perShard = Math.ceil(limit / keys.contactShards);
    const shards = await Promise.all(
      Array.from({ length: keys.contactShards }, async (_, shard) => {
        const contacts: ContactRecord[] = [];
        let start: Item | undefined;
        // One more than the shard's share tells whether the shard holds more than was read.
        do {
          const out = await this.db.send(
            new QueryCommand({
              TableName: this.tableName,
              IndexName: TABLE_KEYS.gsi1.name,
              KeyConditionExpression: '#gpk = :pk',
              ExpressionAttributeNames: { '#gpk': TABLE_KEYS.gsi1.partitionKey },
              ExpressionAttributeValues: { ':pk': keys.contactListingPk(clientId, shard) },
              Limit: perShard + 1 - contacts.length,
              ...(start ? { ExclusiveStartKey: start } : {}),
            }),
          );
          for (const item of out.Items ?? []) contacts.push(stripKeys<ContactRecord>(item));
          start = out.LastEvaluatedKey;
        } while (start && contacts.length <= perShard);
        return { contacts: contacts.slice(0, perShard), complete: contacts.length <= perShard };
      }),
    );
    const contacts = shards.flatMap((s) => s.contacts);
    const complete = shards.every((s) => s.complete);
    if ((!withCounters && sources.length === 0) || contacts.length === 0)
      return { contacts: contacts.map((contact) => ({ contact })), complete };
    const items = await batchGetItems(
      this.db,
      this.tableName,
      contacts.flatMap((c) => [
        ...(withCounters ? [keys.contactCounters(clientId, c.id)] : []),
        ...engagementKeysOf(clientId, c.id, sources),
      ]),
    );
    const byKey = new Map(items.map((item) => [keyOf(item as unknown as ItemKey), item]));
    return {
      contacts: contacts.map((contact) => {
        const counters = countersOf(byKey.get(keyOf(keys.contactCounters(clientId, contact.id))));
        const engagement = engagementOf(byKey, clientId, contact.id, sources);
        return { contact, ...(counters ? { counters } : {}), ...(engagement ? { engagement } : {}) };
      }),
      complete,
    };
  }

  private headItem(segment: SegmentRecord): Item {
    return {
      ...keys.segment(segment.client_id, segment.id),
      entity: ENTITY.segment,
      ...segment,
      ...(segment.status === 'building'
        ? keys.segmentJobEntry(segment.client_id, segment.id, segment.backfill.started_at)
        : {}),
    };
  }

  private summaryUpdate(segment: SegmentRecord): TransactItem {
    return {
      Update: {
        TableName: this.tableName,
        Key: keys.segmentCount(segment.client_id),
        UpdateExpression: 'SET #s = :summary',
        ConditionExpression: 'attribute_exists(#s)',
        ExpressionAttributeNames: { '#s': segmentSummaryAttribute(segment.id) },
        ExpressionAttributeValues: { ':summary': segmentSummaryOf(segment) },
      },
    };
  }

  private indexPut(clientId: number, index: IndexWrite): TransactItem {
    return {
      Put: {
        TableName: this.tableName,
        Item: { ...keys.segmentIndex(clientId), ...index.body, version: index.readVersion + 1 },
        ConditionExpression: index.readVersion === 0 ? 'attribute_not_exists(pk)' : '#v = :read',
        ...(index.readVersion === 0
          ? {}
          : {
              ExpressionAttributeNames: { '#v': 'version' },
              ExpressionAttributeValues: { ':read': index.readVersion },
            }),
      },
    };
  }

  private progressPuts(segment: SegmentRecord, shards: number): TransactItem[] {
    return Array.from({ length: shards }, (_, shard) => ({
      Put: {
        TableName: this.tableName,
        Item: {
          ...keys.segmentBackfill(segment.client_id, segment.id, shard),
          version: segment.backfill.version,
          after: 0,
          scanned: 0,
          matched: 0,
          beat_at: segment.backfill.started_at,
          done: false,
        },
      },
    }));
  }

  private async transact(items: TransactItem[]): Promise<SegmentWriteOutcome> {
    try {
      await sendTransaction(this.db, new TransactWriteCommand({ TransactItems: items }));
      return 'done';
    } catch (error) {
      if (conditionFailed(error)) return 'stale';
      throw error;
    }
  }
}

/**
 * Shards read in parallel, each up to `limit` after the same position: the page is every entry up to the lowest
 * position a shard stopped at (beyond it another shard may hold smaller ids), sorted, cut at `limit`.
 */
export function mergeShards(
  shards: readonly { members: SegmentMemberEntry[]; stoppedAt?: number }[],
  limit: number,
): { members: SegmentMemberEntry[]; nextAfter?: number } {
  const stops = shards.flatMap((s) => (s.stoppedAt === undefined ? [] : [s.stoppedAt]));
  const horizon = stops.length > 0 ? Math.min(...stops) : undefined;
  const seen = shards
    .flatMap((s) => s.members)
    .filter((m) => horizon === undefined || m.contact_id <= horizon)
    .sort((a, b) => a.contact_id - b.contact_id);
  const members = seen.slice(0, limit);
  if (seen.length > limit) return { members, nextAfter: members.at(-1)!.contact_id };
  return horizon === undefined ? { members } : { members, nextAfter: horizon };
}
