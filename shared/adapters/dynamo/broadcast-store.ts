import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type {
  BroadcastDraftReplace,
  BroadcastMove,
  BroadcastRecord,
  BroadcastStore,
  BroadcastTotalsRow,
} from '../../domain/broadcasts/broadcast-store.js';
import { STAT_COUNTERS, type StatCounts } from '../../domain/stats/stats-counters.js';
import { batchGetItems } from './batch-get.js';
import type { BroadcastLinkRow, RecipientDetails } from '../../domain/broadcasts/broadcast-store.js';
import type { ExecutionRecord } from '../../domain/executions/execution-record.js';
import type { SentStatus } from '../../domain/sent-emails/sent-email-record.js';
import { LINK_HUMAN, LINK_MACHINE } from '../../domain/stats/link-counters.js';
import { TABLE_KEYS } from './table-definition.js';
import { SENT_STATUS } from '../../domain/sent-emails/sent-email-record.js';
import { nextEmailStatus, STATUS_RANK } from '../../domain/tracking/status-rank.js';
import { queryAll } from './query-all.js';

/** Log Queries of a recipients page in flight at once. */
const LOG_QUERIES_AT_ONCE = 50;
import type { ConversionBroadcast } from '../../domain/broadcasts/conversions.js';
import { listConversion } from './broadcast-conversions.js';
import { ENTITY, keys, type ItemKey } from './keys.js';
import { createWithNextId, LOST, lostToAnotherWriter } from './next-id-create.js';
import { BROADCAST_LIMITS, type BroadcastStatus } from '../../public/broadcast-rules.js';
import { unmarshall } from '@aws-sdk/util-dynamodb';

const ENGINE_AND_KEY_FIELDS = ['pk', 'sk', 'gsi3pk', 'gsi3sk', 'entity', 'shards'] as const;

/** A client's broadcast heads (CLIENT#<id> / BROADCAST#<id>), their id counter, and the totals rows the projection keeps. */
export class DynamoBroadcastStore implements BroadcastStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** The client's next broadcast id as stored (undefined before its first), read strongly. */
  private async nextId(countKey: ItemKey): Promise<number | undefined> {
    const read = await this.db.send(new GetCommand({ TableName: this.tableName, Key: countKey, ConsistentRead: true }));
    return typeof read.Item?.['next_id'] === 'number' ? (read.Item['next_id'] as number) : undefined;
  }

  /** The transaction item that takes the id read: it fails when another create took it first. */
  private claimId(countKey: ItemKey, current: number | undefined) {
    const id = current ?? 1;
    return {
      Update: {
        TableName: this.tableName,
        Key: countKey,
        UpdateExpression: 'SET next_id = :next',
        ConditionExpression: current === undefined ? 'attribute_not_exists(next_id)' : 'next_id = :cur',
        ExpressionAttributeValues: { ':next': id + 1, ...(current === undefined ? {} : { ':cur': current }) },
      },
    };
  }

  /** The transaction item that writes a new head (it fails when the id is already taken). */
  private putHead(clientId: number, record: BroadcastRecord, extra: Record<string, unknown> = {}) {
    return {
      Put: {
        TableName: this.tableName,
        Item: { ...keys.broadcast(clientId, record.id), entity: ENTITY.broadcast, ...record, ...extra },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }

  /** A create under the client's broadcast id counter (read strongly, taken in the attempt's transaction). */
  private withNextId<T>(
    clientId: number,
    what: string,
    attempt: (current: number | undefined, countKey: ItemKey) => Promise<T | typeof LOST>,
  ): Promise<T> {
    const countKey = keys.broadcastCount(clientId);
    return createWithNextId<number | undefined, T>({
      what: `${what} for client ${clientId}`,
      read: () => this.nextId(countKey),
      idOf: (current) => current,
      attempt: (current) => attempt(current, countKey),
    });
  }

  async create(clientId: number, draft: Omit<BroadcastRecord, 'id'>): Promise<BroadcastRecord> {
    return this.withNextId(clientId, 'Broadcast create', async (current, countKey) => {
      const record: BroadcastRecord = { ...draft, id: current ?? 1 };
      try {
        await this.db.send(
          new TransactWriteCommand({
            TransactItems: [this.claimId(countKey, current), this.putHead(clientId, record)],
          }),
        );
        return record;
      } catch (error) {
        if (!lostToAnotherWriter(error)) throw error;
        return LOST;
      }
    });
  }

  async createResend(
    clientId: number,
    parentId: number,
    child: Omit<BroadcastRecord, 'id'>,
    liveAt: string,
  ): Promise<BroadcastRecord | 'missing' | 'exists' | { refused: BroadcastStatus }> {
    return this.withNextId<BroadcastRecord | 'missing' | 'exists' | { refused: BroadcastStatus }>(
      clientId,
      'Broadcast resend',
      async (current, countKey) => {
        const id = current ?? 1;
        const record: BroadcastRecord = { ...child, id };
        try {
          await this.db.send(
            new TransactWriteCommand({
              TransactItems: [
                this.claimId(countKey, current),
                this.putHead(clientId, record, keys.broadcastLiveEntry(clientId, id, liveAt)),
                {
                  Update: {
                    TableName: this.tableName,
                    Key: keys.broadcast(clientId, parentId),
                    UpdateExpression: 'SET resend_id = :id, updated_at = :at',
                    ConditionExpression:
                      'client_id = :c AND #s IN (:snapshotting, :sending, :paused, :sent) AND attribute_not_exists(resend_id)',
                    ExpressionAttributeNames: { '#s': 'status' },
                    ExpressionAttributeValues: {
                      ':id': id,
                      ':at': child.created_at,
                      ':c': clientId,
                      ':snapshotting': 'snapshotting',
                      ':sending': 'sending',
                      ':paused': 'paused',
                      ':sent': 'sent',
                    },
                    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
                  },
                },
              ],
            }),
          );
          return record;
        } catch (error) {
          if (!(error instanceof TransactionCanceledException)) throw error;
          const reason = error.CancellationReasons?.[2];
          if (reason?.Code === 'ConditionalCheckFailed') {
            // The parent refused: the refusal carries it (no second read).
            const old = reason.Item ? unmarshall(reason.Item as Parameters<typeof unmarshall>[0]) : undefined;
            if (!old || old['client_id'] !== clientId) return 'missing';
            if (old['resend_id'] !== undefined) return 'exists';
            return { refused: old['status'] as BroadcastStatus };
          }
          // Another create took the id: read the count again.
          return LOST;
        }
      },
    );
  }

  async get(clientId: number, broadcastId: number) {
    const head = keys.broadcast(clientId, broadcastId);
    const totals = keys.statsBroadcastTotals(clientId, broadcastId);
    // An A/B test's variant rows in the same request (a broadcast without one has none: absent keys cost a read unit).
    const variantKeys = Array.from({ length: BROADCAST_LIMITS.variants }, (_, v) =>
      keys.statsBroadcastVariant(clientId, broadcastId, v),
    );
    const out = await this.db.send(
      new BatchGetCommand({
        RequestItems: { [this.tableName]: { Keys: [head, totals, ...variantKeys], ConsistentRead: true } },
      }),
    );
    const items = out.Responses?.[this.tableName] ?? [];
    const headItem = items.find((item) => item['sk'] === head.sk);
    const totalsItem = items.find((item) => item['sk'] === totals.sk);
    const broadcast = headItem && headItem['client_id'] === clientId ? recordOf(headItem) : undefined;
    const variants = broadcast?.definition.ab
      ? variantKeys.slice(0, broadcast.definition.variants.length).map((key) => {
          const item = items.find((i) => i['sk'] === key.sk);
          return item ? totalsOf(item) : { counts: {} };
        })
      : undefined;
    return {
      ...(broadcast ? { broadcast } : {}),
      ...(totalsItem ? { totals: totalsOf(totalsItem) } : {}),
      ...(variants ? { variants } : {}),
    };
  }

  async list(clientId: number, limit: number) {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.broadcast(clientId, 0).pk, ':prefix': keys.broadcastSkPrefix },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    const heads = (out.Items ?? []).map(recordOf);
    if (heads.length === 0) return [];
    const rows = await this.db.send(
      new BatchGetCommand({
        RequestItems: { [this.tableName]: { Keys: heads.map((h) => keys.statsBroadcastTotals(clientId, h.id)) } },
      }),
    );
    const bySk = new Map((rows.Responses?.[this.tableName] ?? []).map((item) => [String(item['sk']), item]));
    return heads.map((broadcast) => {
      const row = bySk.get(keys.statsBroadcastTotals(clientId, broadcast.id).sk);
      return { broadcast, ...(row ? { totals: totalsOf(row) } : {}) };
    });
  }

  async move(move: BroadcastMove): Promise<BroadcastRecord | undefined> {
    const names: Record<string, string> = { '#s': 'status' };
    const values: Record<string, unknown> = { ':to': move.to, ':at': move.at };
    const froms = move.from.map((status, i) => {
      values[`:f${i}`] = status;
      return `:f${i}`;
    });
    const sets = ['#s = :to', 'updated_at = :at'];
    for (const [field, value] of Object.entries(move.set ?? {})) {
      sets.push(`${field} = :${field}`);
      values[`:${field}`] = value;
    }
    if (move.liveAt !== undefined) {
      const live = keys.broadcastLiveEntry(move.clientId, move.broadcastId, move.liveAt);
      sets.push('gsi3pk = :lpk', 'gsi3sk = :lsk');
      values[':lpk'] = live.gsi3pk;
      values[':lsk'] = live.gsi3sk;
    }
    let condition = `#s IN (${froms.join(', ')})`;
    if (move.draftVersion !== undefined) {
      condition += ' AND draft_version = :dv';
      values[':dv'] = move.draftVersion;
    }
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.broadcast(move.clientId, move.broadcastId),
          UpdateExpression: `SET ${sets.join(', ')}${move.remove?.length ? ` REMOVE ${move.remove.join(', ')}` : ''}`,
          ConditionExpression: `attribute_exists(pk) AND ${condition}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes ? recordOf(out.Attributes) : undefined;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  async replaceDraft(replace: BroadcastDraftReplace): Promise<BroadcastRecord | undefined> {
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.broadcast(replace.clientId, replace.broadcastId),
          UpdateExpression: 'SET #n = :name, #d = :definition, draft_version = :next, updated_at = :at',
          ConditionExpression: 'attribute_exists(pk) AND #s = :draft AND draft_version = :read',
          ExpressionAttributeNames: { '#n': 'name', '#d': 'definition', '#s': 'status' },
          ExpressionAttributeValues: {
            ':name': replace.name,
            ':definition': replace.definition,
            ':next': replace.draftVersion + 1,
            ':at': replace.at,
            ':draft': 'draft',
            ':read': replace.draftVersion,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes ? recordOf(out.Attributes) : undefined;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  async statuses(clientId: number, broadcastIds: readonly number[]): Promise<Map<number, BroadcastStatus>> {
    const items = await batchGetItems(
      this.db,
      this.tableName,
      broadcastIds.map((id) => keys.broadcast(clientId, id)),
      { consistentRead: true, attributes: ['id', 'client_id', 'status'] },
    );
    return new Map(
      items
        .filter((item) => item['client_id'] === clientId)
        .map((item) => [Number(item['id']), item['status'] as BroadcastStatus]),
    );
  }

  async deleteDraft(
    clientId: number,
    broadcastId: number,
  ): Promise<'deleted' | 'missing' | { status: BroadcastStatus }> {
    try {
      await this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: keys.broadcast(clientId, broadcastId),
          ConditionExpression: 'client_id = :c AND #s = :draft',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':c': clientId, ':draft': 'draft' },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return 'deleted';
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // The refused head comes back with the refusal (no second read); none means there was none.
      const old = error.Item ? unmarshall(error.Item) : undefined;
      return old && old['client_id'] === clientId ? { status: old['status'] as BroadcastStatus } : 'missing';
    }
  }

  listConversion(clientId: number, entry: ConversionBroadcast, now: Date): Promise<void> {
    return listConversion(this.db, this.tableName, clientId, entry, now);
  }

  async links(clientId: number, broadcastId: number): Promise<BroadcastLinkRow[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :links)',
        ExpressionAttributeValues: {
          ':pk': keys.statsPk(clientId),
          ':links': `${keys.statsBroadcastPrefix(broadcastId)}L`,
        },
        ProjectionExpression: '#u, #h, #m',
        ExpressionAttributeNames: { '#u': 'url', '#h': LINK_HUMAN, '#m': LINK_MACHINE },
      }),
    );
    return (out.Items ?? []).map((item) => ({
      url: String(item['url'] ?? ''),
      human: typeof item[LINK_HUMAN] === 'number' ? (item[LINK_HUMAN] as number) : 0,
      machine: typeof item[LINK_MACHINE] === 'number' ? (item[LINK_MACHINE] as number) : 0,
    }));
  }

  async recipientPage(
    clientId: number,
    broadcastId: number,
    page: { after?: string; limit: number; statuses?: readonly number[] },
  ): Promise<{ recipients: ExecutionRecord[]; nextAfter?: string }> {
    const statuses = page.statuses ?? [];
    const shards = await Promise.all(
      Array.from({ length: keys.broadcastRecipientShards }, async (_, shard) => {
        const values: Record<string, unknown> = { ':pk': keys.broadcastRecipientsPk(clientId, broadcastId, shard) };
        if (page.after !== undefined) values[':after'] = page.after;
        statuses.forEach((status, i) => {
          values[`:s${i}`] = status;
        });
        const out = await this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            IndexName: TABLE_KEYS.gsi1.name,
            KeyConditionExpression: page.after === undefined ? 'gsi1pk = :pk' : 'gsi1pk = :pk AND gsi1sk > :after',
            ...(statuses.length > 0
              ? {
                  FilterExpression: `#st IN (${statuses.map((_, i) => `:s${i}`).join(', ')})`,
                  ExpressionAttributeNames: { '#st': 'status' },
                }
              : {}),
            ExpressionAttributeValues: values,
            Limit: page.limit,
          }),
        );
        return {
          rows: (out.Items ?? []).map((item) => ({ key: String(item['gsi1sk']), item })),
          ...(out.LastEvaluatedKey ? { stoppedAt: String(out.LastEvaluatedKey['gsi1sk']) } : {}),
        };
      }),
    );
    const merged = mergeListing(shards, page.limit);
    return {
      recipients: merged.rows.map((row) => executionOf(row.item)),
      ...(merged.nextAfter !== undefined ? { nextAfter: merged.nextAfter } : {}),
    };
  }

  async recipientDetails(clientId: number, recipients: readonly ExecutionRecord[]): Promise<RecipientDetails> {
    const sent = recipients.flatMap((r) => (r.sent_email_id ? [r.sent_email_id] : []));
    const [logs, contacts] = await Promise.all([
      this.logsOf(clientId, sent),
      recipients.length === 0
        ? []
        : batchGetItems(
            this.db,
            this.tableName,
            recipients.map((r) => keys.contact(clientId, r.contact_id)),
            { consistentRead: false, attributes: ['id', 'email'] },
          ),
    ]);
    const details: RecipientDetails = {
      emails: new Map(),
      humanOpened: new Set(),
      humanClicked: new Set(),
      contacts: new Map(),
    };
    for (const [id, items] of logs) {
      // The e-mail's status is the highest-ranked of its logs (as its own answer says it); people's opens and clicks
      // are the logs bot detection did not mark.
      let status: SentStatus = SENT_STATUS.sent;
      for (const log of items) {
        const logStatus = log['status'] as SentStatus;
        if (typeof logStatus === 'number' && logStatus in STATUS_RANK) status = nextEmailStatus(status, logStatus);
        if (log['is_bot'] === true) continue;
        if (logStatus === SENT_STATUS.opened || logStatus === SENT_STATUS.clicked) details.humanOpened.add(id);
        if (logStatus === SENT_STATUS.clicked) details.humanClicked.add(id);
      }
      details.emails.set(id, { status });
    }
    for (const item of contacts)
      if (typeof item['email'] === 'string') details.contacts.set(Number(item['id']), item['email']);
    return details;
  }

  /**
   * Each e-mail's status logs (status and bot verdict only; small items): one Query per e-mail, 50 at a time. Cheaper
   * than the e-mail items themselves (5–32 KB each), whose own status stays at the send's.
   */
  private async logsOf(
    clientId: number,
    sentEmailIds: readonly string[],
  ): Promise<Map<string, Record<string, unknown>[]>> {
    const logs = new Map<string, Record<string, unknown>[]>();
    for (let i = 0; i < sentEmailIds.length; i += LOG_QUERIES_AT_ONCE) {
      await Promise.all(
        sentEmailIds.slice(i, i + LOG_QUERIES_AT_ONCE).map(async (id) => {
          const items = await queryAll(this.db, {
            TableName: this.tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :log)',
            ExpressionAttributeValues: { ':pk': keys.sentEmail(clientId, id).pk, ':log': keys.sentEmailLogPrefix },
            ProjectionExpression: '#s, is_bot',
            ExpressionAttributeNames: { '#s': 'status' },
          });
          logs.set(id, items);
        }),
      );
    }
    return logs;
  }
}

/**
 * Listing shards read in parallel, each up to `limit` after the same position: the page is every row up to the lowest
 * position a shard stopped at (beyond it another shard may hold earlier rows), in order, cut at `limit`.
 */
export function mergeListing<R extends { key: string }>(
  shards: readonly { rows: R[]; stoppedAt?: string }[],
  limit: number,
): { rows: R[]; nextAfter?: string } {
  const stops = shards.flatMap((s) => (s.stoppedAt === undefined ? [] : [s.stoppedAt]));
  const horizon = stops.length > 0 ? stops.reduce((a, b) => (b < a ? b : a)) : undefined;
  const seen = shards
    .flatMap((s) => s.rows)
    .filter((r) => horizon === undefined || r.key <= horizon)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const rows = seen.slice(0, limit);
  if (seen.length > limit) return { rows, nextAfter: rows.at(-1)!.key };
  return horizon === undefined ? { rows } : { rows, nextAfter: horizon };
}

const LISTING_FIELDS = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk', 'entity'] as const;

function executionOf(item: Record<string, unknown>): ExecutionRecord {
  const record: Record<string, unknown> = { ...item };
  for (const field of LISTING_FIELDS) delete record[field];
  return record as unknown as ExecutionRecord;
}

function recordOf(item: Record<string, unknown>): BroadcastRecord {
  const record: Record<string, unknown> = { ...item };
  for (const field of ENGINE_AND_KEY_FIELDS) delete record[field];
  return record as unknown as BroadcastRecord;
}

function totalsOf(item: Record<string, unknown>): BroadcastTotalsRow {
  const counts: Partial<StatCounts> = {};
  for (const name of STAT_COUNTERS) if (typeof item[name] === 'number') counts[name] = item[name] as number;
  return { counts };
}
