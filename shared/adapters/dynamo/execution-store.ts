import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../domain/executions/execution-record.js';
import {
  TOTAL_LOOKAHEAD,
  type ExecutionListFilter,
  type ExecutionListPage,
  type ExecutionStore,
  type Finish,
} from '../../domain/executions/execution-store.js';
import { ENDED_CLAIM, executionItem } from './execution-item.js';
import { stripKeys } from './items.js';
import { keys } from './keys.js';
import { sendTransaction } from './transactions.js';
import { contactFiguresUpdate } from './contact-figures.js';
import { capPendingAttribute } from './quota-counter.js';
import { TABLE_KEYS } from './table-definition.js';
import type { DeferOptions, ExecutingPage } from '../../domain/executions/execution-store.js';
import { dueEntryOf, endedActive } from './recipient-item.js';

interface ExecutingCursor {
  shard: number;
  key?: Record<string, unknown>;
}
const encodeCursor = (cursor: ExecutingCursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');
const decodeCursor = (text: string): ExecutingCursor =>
  JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as ExecutingCursor;

/** Executions under their own keys, listed per client through gsi1 over `keys.executionShards` key values. */
export class DynamoExecutionStore implements ExecutionStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(clientId: number, executionId: number): Promise<ExecutionRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.execution(clientId, executionId), ConsistentRead: true }),
    );
    return out.Item ? stripKeys<ExecutionRecord>(out.Item) : undefined;
  }

  async finish(execution: ExecutionRecord, finish: Finish): Promise<boolean> {
    const values: Record<string, unknown> = {
      ':to': finish.status,
      ':from': execution.status,
      ':at': finish.at,
      ':seen': execution.updated_at,
    };
    let set = 'SET #s = :to, updated_at = :at, processed_at = :at';
    if (finish.reason) (set += ', reason = :reason'), (values[':reason'] = finish.reason);
    if (finish.goalEventId !== undefined) (set += ', goal_event_id = :goal'), (values[':goal'] = finish.goalEventId);
    // An execution ended from 2 (a retry that was then skipped or cancelled) leaves its claim and the stuck index.
    set += ` ${ENDED_CLAIM}`;
    const own = {
      TableName: this.tableName,
      Key: keys.execution(execution.client_id, execution.id),
      UpdateExpression: set,
      // Unchanged since read: a second worker, or a stale takeover, cannot both end it.
      ConditionExpression: '#s = :from AND updated_at = :seen',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: values,
    };
    try {
      await sendTransaction(
        this.db,
        new TransactWriteCommand({
          TransactItems: [
            { Update: own },
            contactFiguresUpdate(this.tableName, execution.client_id, execution.contact_id, {
              activeWorkflows: endedActive(execution),
              closedExecutionId: execution.id,
            }),
            {
              // No longer waiting for a slot of the contact's day.
              Update: {
                TableName: this.tableName,
                Key: keys.contactDayCap(execution.client_id, execution.contact_id, execution.cap_day),
                UpdateExpression: 'REMOVE #me',
                ExpressionAttributeNames: { '#me': capPendingAttribute(execution.id) },
              },
            },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const [ownReason, contact] = error.CancellationReasons ?? [];
      if (ownReason?.Code === 'ConditionalCheckFailed') return false;
      // The contact is gone (erased): end the execution without touching its figures (still counted).
      if (contact?.Code === 'ConditionalCheckFailed') return this.updateIfUnchanged(own);
      throw error;
    }
  }

  /** One conditional update; false when its condition failed (another worker moved the execution). */
  private async updateIfUnchanged(input: ConstructorParameters<typeof UpdateCommand>[0]): Promise<boolean> {
    try {
      await this.db.send(new UpdateCommand(input));
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async defer(
    execution: ExecutionRecord,
    scheduledFor: string,
    reason: string,
    at: string,
    options: DeferOptions = {},
  ): Promise<boolean> {
    // The stuck-index entry moves with it: a queued execution by its new due time, a deferred retry (2) by `updated_at`.
    const pendingSince = execution.status === EXECUTION_STATUS.executing ? at : scheduledFor;
    // A broadcast recipient goes back to its broadcast's due index instead: its pacer releases it, at the pace.
    const entry =
      options.duePartitions !== undefined && execution.broadcast_id !== undefined
        ? dueEntryOf(execution.client_id, execution.broadcast_id, execution.id, scheduledFor, options.duePartitions)
        : keys.executingEntry(execution.client_id, execution.id, pendingSince);
    // `deferrals` counts each deferral on the execution itself: the day counters read it from the change.
    const own = {
      TableName: this.tableName,
      Key: keys.execution(execution.client_id, execution.id),
      UpdateExpression:
        'SET scheduled_for = :when, reason = :reason, updated_at = :at, gsi3pk = :g3pk, gsi3sk = :g3sk ADD deferrals :one',
      ConditionExpression: '#s = :seenStatus AND updated_at = :seen',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: {
        ':when': scheduledFor,
        ':reason': reason,
        ':at': at,
        ':seenStatus': execution.status,
        ':seen': execution.updated_at,
        ':one': 1,
        ':g3pk': entry.gsi3pk,
        ':g3sk': entry.gsi3sk,
      },
    };
    return this.updateIfUnchanged(own);
  }

  async listExecutingBefore(before: string, limit: number, cursor?: string): Promise<ExecutingPage> {
    const start = cursor ? decodeCursor(cursor) : { shard: 0 };
    const found: ExecutingPage['executions'] = [];
    let shard = start.shard;
    let key = start.key;
    while (shard < keys.executingShards && found.length < limit) {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: TABLE_KEYS.gsi3.name,
          KeyConditionExpression: '#pk = :pk AND #sk < :before',
          ExpressionAttributeNames: { '#pk': TABLE_KEYS.gsi3.partitionKey, '#sk': TABLE_KEYS.gsi3.sortKey },
          ExpressionAttributeValues: { ':pk': keys.executingPk(shard), ':before': before },
          Limit: limit - found.length,
          ExclusiveStartKey: key,
        }),
      );
      for (const item of page.Items ?? []) {
        const named = keys.executingOf(String(item[TABLE_KEYS.gsi3.sortKey]));
        if (named) found.push(named);
      }
      key = page.LastEvaluatedKey;
      if (!key) shard += 1;
    }
    const more = shard < keys.executingShards;
    return { executions: found, ...(more ? { cursor: encodeCursor({ shard, key }) } : {}) };
  }

  /**
   * Newest first across the shards. A numbered page: each shard is read newest first only until it holds `page ×
   * per_page + TOTAL_LOOKAHEAD` matches (or runs out), then the shards are merged; page k reads at most (k × per_page +
   * 100) × 8 items, and k × per_page ≤ 1 000. A page after a cursor position: one Query of per_page + 2 items per
   * shard (8 in parallel), whatever the history (listPageAfter).
   */
  async list(clientId: number, filter: ExecutionListFilter): Promise<ExecutionListPage> {
    if (filter.after !== undefined) return this.listPageAfter(clientId, filter, filter.after);
    const { range, query } = this.listingQuery(clientId, filter);
    const wanted = filter.page * filter.perPage + TOTAL_LOOKAHEAD;
    const shards = await Promise.all(
      Array.from({ length: keys.executionShards }, async (_, shard) => {
        const items: Record<string, unknown>[] = [];
        let start: Record<string, unknown> | undefined;
        do {
          const page = await this.db.send(
            new QueryCommand({
              ...query(shard, range),
              // Limit bounds the items evaluated per call; a filter may need a few calls to gather `wanted`.
              Limit: wanted - items.length,
              ExclusiveStartKey: start,
            }),
          );
          items.push(...(page.Items ?? []));
          start = page.LastEvaluatedKey;
        } while (start && items.length < wanted);
        return { items, exhausted: start === undefined };
      }),
    );
    const all = shards.flatMap((s) => s.items).sort((a, b) => String(b['gsi1sk']).localeCompare(String(a['gsi1sk'])));
    const offset = (filter.page - 1) * filter.perPage;
    const shown = all.slice(offset, offset + filter.perPage);
    const exhausted = shards.every((s) => s.exhausted);
    const followed = all.length > offset + filter.perPage || (!exhausted && shown.length > 0);
    return {
      executions: shown.map((item) => stripKeys<ExecutionRecord>(item)),
      total: all.length,
      totalExact: exhausted,
      ...(followed ? { next: String(shown.at(-1)!['gsi1sk']) } : {}),
    };
  }

  /**
   * The executions older than `after`: one Query per shard of per_page + 2 items (the one at `after` itself may come
   * back when a lower bound makes the condition a BETWEEN). Each unfinished shard has been read down to its last
   * evaluated key; only what is at or above the highest of those is known to be complete across the shards, so the
   * page is cut there (a selective filter may give a short page, with `next` at that frontier).
   */
  private async listPageAfter(
    clientId: number,
    filter: ExecutionListFilter,
    after: string,
  ): Promise<ExecutionListPage> {
    const before = filter.createdBefore !== undefined && filter.createdBefore < after ? filter.createdBefore : after;
    const { range, query } = this.listingQuery(clientId, { ...filter, createdBefore: before });
    const shards = await Promise.all(
      Array.from({ length: keys.executionShards }, async (_, shard) => {
        const page = await this.db.send(new QueryCommand({ ...query(shard, range), Limit: filter.perPage + 2 }));
        const items = (page.Items ?? []).filter((item) => String(item['gsi1sk']) < after);
        return { items, stoppedAt: page.LastEvaluatedKey ? String(page.LastEvaluatedKey['gsi1sk']) : undefined };
      }),
    );
    const stops = shards.flatMap((s) => (s.stoppedAt === undefined ? [] : [s.stoppedAt]));
    const frontier = stops.length > 0 ? stops.reduce((a, b) => (a > b ? a : b)) : undefined;
    const complete = shards
      .flatMap((s) => s.items)
      .filter((item) => frontier === undefined || String(item['gsi1sk']) >= frontier)
      .sort((a, b) => String(b['gsi1sk']).localeCompare(String(a['gsi1sk'])));
    const shown = complete.slice(0, filter.perPage);
    const next = complete.length > filter.perPage ? String(shown.at(-1)!['gsi1sk']) : frontier;
    return {
      executions: shown.map((item) => stripKeys<ExecutionRecord>(item)),
      total: (filter.page - 1) * filter.perPage + complete.length,
      totalExact: frontier === undefined,
      ...(next !== undefined ? { next } : {}),
    };
  }

  /** The listing Query of one shard: the created_* bounds as the key condition, workflow and status as a filter. */
  private listingQuery(clientId: number, filter: ExecutionListFilter) {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const conditions: string[] = [];
    if (filter.workflowId !== undefined) conditions.push('workflow_id = :wf'), (values[':wf'] = filter.workflowId);
    if (filter.status !== undefined)
      (names['#s'] = 'status'), conditions.push('#s = :st'), (values[':st'] = filter.status);
    let range = '';
    if (filter.createdFrom && filter.createdBefore) {
      range = ' AND gsi1sk BETWEEN :from AND :to';
      values[':from'] = filter.createdFrom;
      values[':to'] = filter.createdBefore;
    } else if (filter.createdFrom) {
      range = ' AND gsi1sk >= :from';
      values[':from'] = filter.createdFrom;
    } else if (filter.createdBefore) {
      range = ' AND gsi1sk < :to';
      values[':to'] = filter.createdBefore;
    }
    const query = (shard: number, keyRange: string) => ({
      TableName: this.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: `gsi1pk = :pk${keyRange}`,
      ...(conditions.length ? { FilterExpression: conditions.join(' AND ') } : {}),
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: { ...values, ':pk': keys.executionListingPk(clientId, shard) },
      ScanIndexForward: false,
    });
    return { range, query };
  }

  async retry(original: ExecutionRecord, next: ExecutionRecord, at: string): Promise<boolean> {
    try {
      await sendTransaction(
        this.db,
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: keys.execution(original.client_id, original.id),
                UpdateExpression: 'SET #s = :retried, updated_at = :at',
                ConditionExpression: '#s = :failed',
                ExpressionAttributeNames: { '#s': 'status' },
                ExpressionAttributeValues: {
                  ':retried': EXECUTION_STATUS.retried,
                  ':failed': EXECUTION_STATUS.failed,
                  ':at': at,
                },
              },
            },
            {
              Put: {
                TableName: this.tableName,
                Item: executionItem(next),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            contactFiguresUpdate(this.tableName, next.client_id, next.contact_id, {
              activeWorkflows: 1,
              opened: {
                execution_id: next.id,
                workflow_id: next.workflow_id,
                cap_day: next.cap_day,
                critical: next.critical,
              },
            }),
          ],
        }),
      );
      return true;
    } catch (error) {
      if (
        error instanceof TransactionCanceledException &&
        error.CancellationReasons?.some((r) => r.Code === 'ConditionalCheckFailed')
      ) {
        return false;
      }
      throw error;
    }
  }

  /**
   * Every queued execution of every client, by Scan: the local runtime's recovery on boot (its schedules live in
   * memory). Never used on AWS, where EventBridge Scheduler keeps the schedules. Broadcast recipients waiting in their
   * due index are left out: their pacer releases them.
   */
  async scanQueued(): Promise<ExecutionRecord[]> {
    const found: ExecutionRecord[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(
        new ScanCommand({
          TableName: this.tableName,
          // A broadcast recipient in its due index waits for its pacer, not for a message: releasing it here would
          // send it past the pace (the pacer, restarted at boot, releases it).
          FilterExpression:
            'sk = :sk AND #s IN (:queued, :executing) AND (attribute_not_exists(gsi3pk) OR NOT begins_with(gsi3pk, :due))',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: {
            ':sk': keys.executionSk,
            ':queued': EXECUTION_STATUS.queued,
            ':executing': EXECUTION_STATUS.executing,
            ':due': keys.broadcastDuePrefix,
          },
          ExclusiveStartKey: start,
        }),
      );
      found.push(...(page.Items ?? []).map((item) => stripKeys<ExecutionRecord>(item)));
      start = page.LastEvaluatedKey;
    } while (start);
    return found;
  }
}
