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
import { ENTITY, keys } from './keys.js';
import type { BroadcastStatus } from '../../public/broadcast-rules.js';
import { unmarshall } from '@aws-sdk/util-dynamodb';

/** Attempts of a create that met another create of the same client (the next id moved). */
const CREATE_ATTEMPTS = 5;
const ENGINE_AND_KEY_FIELDS = ['pk', 'sk', 'gsi3pk', 'gsi3sk', 'entity', 'shards'] as const;

/** A client's broadcast heads (CLIENT#<id> / BROADCAST#<id>), their id counter, and the totals rows the projection keeps. */
export class DynamoBroadcastStore implements BroadcastStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(clientId: number, draft: Omit<BroadcastRecord, 'id'>): Promise<BroadcastRecord> {
    const countKey = keys.broadcastCount(clientId);
    for (let attempt = 1; attempt <= CREATE_ATTEMPTS; attempt += 1) {
      const read = await this.db.send(
        new GetCommand({ TableName: this.tableName, Key: countKey, ConsistentRead: true }),
      );
      const current = typeof read.Item?.['next_id'] === 'number' ? (read.Item['next_id'] as number) : undefined;
      const id = current ?? 1;
      const record: BroadcastRecord = { ...draft, id };
      try {
        await this.db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: this.tableName,
                  Key: countKey,
                  UpdateExpression: 'SET next_id = :next',
                  ConditionExpression: current === undefined ? 'attribute_not_exists(next_id)' : 'next_id = :cur',
                  ExpressionAttributeValues: { ':next': id + 1, ...(current === undefined ? {} : { ':cur': current }) },
                },
              },
              {
                Put: {
                  TableName: this.tableName,
                  Item: { ...keys.broadcast(clientId, id), entity: ENTITY.broadcast, ...record },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
            ],
          }),
        );
        return record;
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
      }
    }
    throw new Error(`Broadcast create for client ${clientId} lost to concurrent creates ${CREATE_ATTEMPTS} times`);
  }

  async get(clientId: number, broadcastId: number) {
    const head = keys.broadcast(clientId, broadcastId);
    const totals = keys.statsBroadcastTotals(clientId, broadcastId);
    const out = await this.db.send(
      new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: [head, totals], ConsistentRead: true } } }),
    );
    const items = out.Responses?.[this.tableName] ?? [];
    const headItem = items.find((item) => item['sk'] === head.sk);
    const totalsItem = items.find((item) => item['sk'] === totals.sk);
    return {
      ...(headItem && headItem['client_id'] === clientId ? { broadcast: recordOf(headItem) } : {}),
      ...(totalsItem ? { totals: totalsOf(totalsItem) } : {}),
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
