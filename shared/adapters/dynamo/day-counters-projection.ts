import { TransactionCanceledException, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue as LambdaAttributeValue, DynamoDBRecord } from 'aws-lambda';
import {
  counterRowKey,
  deltasOfChange,
  splitsMovedBy,
  sumDeltas,
  type CountedChange,
  type CountedEntity,
  type CounterDelta,
  type DayCountersProjection,
  type ProjectionOutcome,
} from '../../domain/stats/counter-facts.js';
import { STAT_COUNTERS } from '../../domain/stats/stats-counters.js';
import { ENTITY, keys } from './keys.js';
import {
  DEFAULT_STATS_RETENTION_DAYS,
  dayRowUpdate,
  FAIL_REASON_PREFIX,
  RECEIVED,
  SKIP_REASON_PREFIX,
} from './stats-attributes.js';

type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/** The projection's name in its stream-position items. */
export const DAY_COUNTERS_PROJECTION = 'day-counters';

/** A transaction holds at most 100 items: the position and 99 rows. */
const MAX_ROWS_PER_TRANSACTION = 99;
/** A position kept past the stream's 24-hour retention, then expired. */
const POSITION_TTL_SECONDS = 2 * 86_400;
/** Re-reads of the position after another invocation moved it, before the batch is thrown back. */
const MAX_POSITION_RACES = 3;
/** Attempts of one chunk's transaction while it meets others on its rows (other shards' batches, same client). */
const MAX_CONFLICT_ATTEMPTS = 8;

/** A stream sequence number padded so that positions compare as strings (they are decimal, up to 40 digits). */
export const streamPositionOf = (sequenceNumber: string): string => sequenceNumber.padStart(40, '0');

/**
 * The day counters as a projection of the table's change stream. Per stream shard, records arrive in order; the
 * shard's position is an item moved in the same transaction as the sums of the records up to it, so every record is
 * counted exactly once however often a batch, or part of one, is handed over again: records at or below the position
 * are skipped, and a chunk's rows and its position land together or not at all.
 */
export class DynamoDayCountersProjection implements DayCountersProjection<DynamoDBRecord> {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly retentionDays: number = DEFAULT_STATS_RETENTION_DAYS,
    private readonly now: () => number = Date.now,
  ) {}

  async apply(shardId: string, records: readonly DynamoDBRecord[]): Promise<ProjectionOutcome> {
    // Read off the whole batch, replayed records too: a batch thrown back after its counts landed (a decision that
    // failed) still names the splits to decide.
    const splitsMoved = splitsMovedBy(chunksOf(records).flatMap((chunk) => chunk.rows));
    const outcome: ProjectionOutcome = { replayed: 0, applied: 0, rows: 0, transactions: 0, splitsMoved };
    const positionKey = keys.streamPosition(DAY_COUNTERS_PROJECTION, shardId);
    for (let race = 0; ; race += 1) {
      const read = await this.db.send(
        new GetCommand({ TableName: this.tableName, Key: positionKey, ConsistentRead: true }),
      );
      let position = typeof read.Item?.['pos'] === 'string' ? read.Item['pos'] : undefined;
      const fresh = records.filter((r) => {
        const seq = r.dynamodb?.SequenceNumber;
        return seq !== undefined && (position === undefined || streamPositionOf(seq) > position);
      });
      outcome.replayed = records.length - fresh.length;
      try {
        for (const chunk of chunksOf(fresh)) {
          if (chunk.rows.length === 0) continue;
          const next = streamPositionOf(chunk.last);
          await this.commit(positionKey, position, next, chunk.rows);
          position = next;
          outcome.applied += chunk.records;
          outcome.rows += chunk.rows.length;
          outcome.transactions += 1;
        }
        return outcome;
      } catch (error) {
        if (!(error instanceof PositionMoved) || race + 1 >= MAX_POSITION_RACES) throw error;
      }
    }
  }

  /** One chunk: its rows' sums and the position, in one transaction that requires the position it read. */
  private async commit(
    positionKey: { pk: string; sk: string },
    seen: string | undefined,
    next: string,
    rows: readonly CounterDelta[],
  ): Promise<void> {
    const expires = Math.floor(this.now() / 1000) + POSITION_TTL_SECONDS;
    const items: TransactItem[] = [
      {
        Update: {
          TableName: this.tableName,
          Key: positionKey,
          UpdateExpression: 'SET pos = :next, expires_at = :expires',
          ConditionExpression: seen === undefined ? 'attribute_not_exists(pos)' : 'pos = :seen',
          ExpressionAttributeValues: { ':next': next, ':expires': expires, ...(seen ? { ':seen': seen } : {}) },
        },
      },
      ...rows.map((row) => this.rowUpdate(row)),
    ];
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.db.send(new TransactWriteCommand({ TransactItems: items }));
        return;
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const reasons = error.CancellationReasons ?? [];
        if (reasons[0]?.Code === 'ConditionalCheckFailed') throw new PositionMoved();
        const conflictOnly = reasons.every((r) => r.Code === 'TransactionConflict' || r.Code === 'None');
        if (!conflictOnly || attempt >= MAX_CONFLICT_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * 2 ** Math.min(attempt, 6)));
      }
    }
  }

  /** A row's `ADD`s: the counts, the reasons, the events received; its identity and expiry set once. */
  private rowUpdate(row: CounterDelta): TransactItem {
    const adds: [string, number][] = [];
    for (const name of STAT_COUNTERS) {
      const value = row.counts?.[name] ?? 0;
      if (value !== 0) adds.push([name, value]);
    }
    for (const [reason, n] of Object.entries(row.skippedReasons ?? {}))
      adds.push([`${SKIP_REASON_PREFIX}${reason}`, n]);
    for (const [reason, n] of Object.entries(row.failedReasons ?? {})) adds.push([`${FAIL_REASON_PREFIX}${reason}`, n]);
    if (row.received) adds.push([RECEIVED, row.received]);
    const expiresAt = Math.floor(Date.parse(`${row.day}T00:00:00.000Z`) / 1000) + this.retentionDays * 86_400;
    const r = row.row;
    if ('segmentGauge' in r)
      return {
        Update: addsUpdate(
          this.tableName,
          keys.statsSegmentGauge(row.clientId, r.segmentGauge),
          row.adds,
          'SET segment_id = :id, counted_at = :at',
          { ':id': r.segmentGauge, ':at': new Date(this.now()).toISOString() },
        ),
      };
    if ('broadcastLink' in r)
      // A link's row: its URL set once, its clicks added, kept as long as the broadcast's totals.
      return {
        Update: addsUpdate(
          this.tableName,
          keys.statsBroadcastLink(row.clientId, r.broadcastLink, r.link),
          row.adds,
          'SET broadcast_id = :id, #url = if_not_exists(#url, :url), expires_at = :expires',
          { ':id': r.broadcastLink, ':url': r.url, ':expires': expiresAt },
          { '#url': 'url' },
        ),
      };
    if ('broadcast' in r)
      // A broadcast's totals live as long as its last fact's day row would.
      return {
        Update: dayRowUpdate(
          this.tableName,
          r.variant === undefined
            ? keys.statsBroadcastTotals(row.clientId, r.broadcast)
            : keys.statsBroadcastVariant(row.clientId, r.broadcast, r.variant),
          {
            identity: { broadcast_id: r.broadcast },
            day: row.day,
            expiresAt,
            adds,
            renewExpiry: true,
          },
        ),
      };
    if ('journeyGauge' in r) {
      // A split's start time is kept from its first run: set only while absent.
      const first = Object.entries(row.firstSeen ?? {});
      return {
        Update: addsUpdate(
          this.tableName,
          keys.statsJourneyGauge(row.clientId, r.journeyGauge),
          row.adds,
          ['SET journey_id = :id', ...first.map((_, i) => `#f${i} = if_not_exists(#f${i}, :f${i})`)].join(', '),
          { ':id': r.journeyGauge, ...Object.fromEntries(first.map(([, at], i) => [`:f${i}`, at])) },
          Object.fromEntries(first.map(([name], i) => [`#f${i}`, name])),
        ),
      };
    }
    if ('journeyId' in r)
      return {
        Update: addsUpdate(
          this.tableName,
          keys.statsJourneyStepDay(row.clientId, row.day, r.journeyId, r.stepId),
          row.adds,
          'SET journey_id = :id, step_id = :step, #day = :day, expires_at = if_not_exists(expires_at, :expires)',
          { ':id': r.journeyId, ':step': r.stepId, ':day': row.day, ':expires': expiresAt },
          { '#day': 'day' },
        ),
      };
    return 'workflowId' in r
      ? {
          Update: dayRowUpdate(this.tableName, keys.statsWorkflowDay(row.clientId, row.day, r.workflowId), {
            identity: { workflow_id: r.workflowId },
            day: row.day,
            expiresAt,
            adds,
          }),
        }
      : {
          Update: dayRowUpdate(this.tableName, keys.statsEventTypeDay(row.clientId, row.day, r.eventType), {
            identity: { event_type: r.eventType },
            day: row.day,
            expiresAt,
            adds,
          }),
        };
  }
}

/** A journey row's `ADD`s by attribute name, and what names it. */
function addsUpdate(
  tableName: string,
  key: { pk: string; sk: string },
  adds: Record<string, number> | undefined,
  set: string,
  values: Record<string, unknown>,
  names: Record<string, string> = {},
) {
  const entries = Object.entries(adds ?? {}).filter(([, n]) => n !== 0);
  const attributeNames: Record<string, string> = { ...names };
  const attributeValues: Record<string, unknown> = { ...values };
  entries.forEach(([name, n], i) => {
    attributeNames[`#a${i}`] = name;
    attributeValues[`:a${i}`] = n;
  });
  const add = entries.length > 0 ? `ADD ${entries.map((_, i) => `#a${i} :a${i}`).join(', ')} ` : '';
  return {
    TableName: tableName,
    Key: key,
    UpdateExpression: `${add}${set}`,
    ...(Object.keys(attributeNames).length > 0 ? { ExpressionAttributeNames: attributeNames } : {}),
    ExpressionAttributeValues: attributeValues,
  };
}

/** Another invocation moved the shard's position since it was read: read it again. */
class PositionMoved extends Error {}

interface Chunk {
  rows: CounterDelta[];
  /** Records the chunk covers (counted or not), and the sequence number of its last. */
  records: number;
  last: string;
}

/**
 * The records cut into chunks at record boundaries, each touching at most 99 rows: a record's deltas never straddle
 * two transactions, so a crash between chunks leaves the position on a record that is wholly in or wholly out.
 */
export function chunksOf(records: readonly DynamoDBRecord[]): Chunk[] {
  const chunks: Chunk[] = [];
  let deltas: CounterDelta[] = [];
  let rowKeys = new Set<string>();
  let count = 0;
  let last = '';
  const close = () => {
    if (count > 0) chunks.push({ rows: sumDeltas(deltas), records: count, last });
    deltas = [];
    rowKeys = new Set();
    count = 0;
  };
  for (const record of records) {
    const change = changeOfRecord(record);
    const own = change ? deltasOfChange(change) : [];
    const added = new Set(own.map(counterRowKey).filter((key) => !rowKeys.has(key)));
    if (rowKeys.size + added.size > MAX_ROWS_PER_TRANSACTION) close();
    for (const delta of own) rowKeys.add(counterRowKey(delta));
    deltas.push(...own);
    count += 1;
    last = record.dynamodb?.SequenceNumber ?? last;
  }
  close();
  return chunks;
}

const ENTITY_OF_KIND: Record<string, CountedEntity> = {
  event: ENTITY.event,
  execution: ENTITY.execution,
  sentLog: ENTITY.sentEmailLog,
  run: ENTITY.run,
  segmentMember: ENTITY.segmentMember,
};

const imageOf = (image: Record<string, LambdaAttributeValue> | undefined): Record<string, unknown> | undefined =>
  image ? unmarshall(image as Record<string, AttributeValue>) : undefined;

/** A stream record as a counted record's change, by its keys (items written before `entity` existed have only those). */
export function changeOfRecord(record: DynamoDBRecord): CountedChange | undefined {
  const pk = record.dynamodb?.Keys?.['pk']?.S;
  const sk = record.dynamodb?.Keys?.['sk']?.S;
  if (pk === undefined || sk === undefined) return undefined;
  const item = keys.changedItemOf(pk, sk);
  const entity = item && ENTITY_OF_KIND[item.kind];
  if (!item || !entity) return undefined;
  const old = imageOf(record.dynamodb?.OldImage);
  const next = imageOf(record.dynamodb?.NewImage);
  return { entity, clientId: item.clientId, ...(old ? { old } : {}), ...(next ? { new: next } : {}) };
}
