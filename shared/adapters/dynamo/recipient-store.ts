import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { ClientRecord } from '../../domain/clients/client-store.js';
import type { ContactRecord } from '../../domain/contacts/contact-store.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../domain/executions/execution-record.js';
import {
  listingPageOf,
  type ListedRecipient,
  nonOpenersOf,
  sentEmailsOf,
} from '../../domain/broadcasts/engine/non-openers.js';
import type {
  AudiencePage,
  AudienceSource,
  BroadcastWinner,
  DueEntry,
  EngineBroadcast,
  LiveBroadcast,
  PacerState,
  PageContext,
  PassContext,
  RecipientStore,
  SnapshotShard,
} from '../../domain/broadcasts/recipient-store.js';
import type { SettingsRecord } from '../../domain/settings/settings-store.js';
import { STAT_COUNTERS, type StatCounts } from '../../domain/stats/stats-counters.js';
import { BROADCAST_LIMITS } from '../../public/broadcast-rules.js';
import { batchGetItems } from './batch-get.js';
import { batchGetWithConfig, type ConfigCache } from './config-cache.js';
import { recipientItem } from './recipient-item.js';
import { stripKeys } from './items.js';
import { keys, type ItemKey } from './keys.js';
import { TABLE_KEYS } from './table-definition.js';
import { topicSetOf } from './topic-store.js';
import { sendTransaction } from './transactions.js';

const keyOf = (k: { pk: unknown; sk: unknown }) => `${String(k.pk)}\u0000${String(k.sk)}`;
/** Conditional writes of a cancel page sent at once. */
const CANCEL_WAVE = 25;

/** The broadcast engine's items in the table (shared/domain/broadcasts/recipient-store.ts). */
export class DynamoRecipientStore implements RecipientStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly configCache?: ConfigCache,
  ) {}

  async head(clientId: number, broadcastId: number): Promise<EngineBroadcast | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.broadcast(clientId, broadcastId), ConsistentRead: true }),
    );
    return out.Item ? stripKeys<EngineBroadcast>(out.Item) : undefined;
  }

  sourceShards(audience: AudienceSource): number {
    if ('resend_of' in audience) return keys.broadcastRecipientShards;
    return 'segment_id' in audience ? keys.segmentMemberShards : keys.contactShards;
  }

  async audienceEstimate(clientId: number, audience: AudienceSource): Promise<number | undefined> {
    if ('resend_of' in audience) {
      // At most the parent's recipients.
      const parent = await this.head(clientId, audience.resend_of);
      return parent?.snapshot?.total;
    }
    if (!('segment_id' in audience)) return undefined;
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.statsSegmentGauge(clientId, audience.segment_id) }),
    );
    return typeof out.Item?.['n'] === 'number' ? (out.Item['n'] as number) : undefined;
  }

  async startSnapshot(
    head: EngineBroadcast,
    gen: number,
    startedAt: string,
    shards: number,
    sources: number,
  ): Promise<boolean> {
    return this.updateIf({
      Key: keys.broadcast(head.client_id, head.id),
      UpdateExpression:
        'SET #s = :snapshotting, started_at = :at, #shards = :shards, #snap = :snapshot, updated_at = :at, gsi3pk = :g3pk, gsi3sk = :g3sk',
      ConditionExpression: '#s = :scheduled AND draft_version = :gen',
      ExpressionAttributeNames: { '#s': 'status', '#shards': 'shards', '#snap': 'snapshot' },
      ExpressionAttributeValues: {
        ':snapshotting': 'snapshotting',
        ':scheduled': 'scheduled',
        ':gen': gen,
        ':at': startedAt,
        ':shards': shards,
        ':snapshot': { sources, done: [], total: 0 },
        ...liveValues(head, startedAt),
      },
    });
  }

  async pageContext(clientId: number, broadcastId: number, shard: number): Promise<PageContext> {
    const head = keys.broadcast(clientId, broadcastId);
    const progress = keys.broadcastSnapshotShard(clientId, broadcastId, shard);
    const settings = keys.settings(clientId);
    const topics = keys.topics(clientId);
    const items = await batchGetWithConfig(
      this.db,
      this.tableName,
      this.configCache,
      [head, progress],
      [settings, topics],
    );
    const byKey = new Map(
      items.map((item) => [keyOf(item as { pk: unknown; sk: unknown }), item as Record<string, unknown>]),
    );
    const read = <T>(key: ItemKey): T | undefined => {
      const item = byKey.get(keyOf(key));
      return item ? stripKeys<T>(item) : undefined;
    };
    return {
      head: read<EngineBroadcast>(head),
      shard: read<SnapshotShard>(progress),
      settings: read<SettingsRecord>(settings),
      topics: topicSetOf(byKey.get(keyOf(topics))),
    };
  }

  async audiencePage(
    clientId: number,
    audience: AudienceSource,
    shard: number,
    after: number | undefined,
    limit: number,
  ): Promise<AudiencePage> {
    if ('resend_of' in audience) return this.nonOpenersPage(clientId, audience.resend_of, shard, after, limit);
    if ('segment_id' in audience) {
      const pk = keys.segmentMemberPk(clientId, audience.segment_id, shard);
      const out = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: after === undefined ? 'pk = :pk' : 'pk = :pk AND sk > :after',
          ExpressionAttributeValues: {
            ':pk': pk,
            ...(after === undefined ? {} : { ':after': keys.segmentMember(clientId, audience.segment_id, after).sk }),
          },
          ConsistentRead: true,
          Limit: limit,
        }),
      );
      const candidates = (out.Items ?? []).map((item) => ({
        contact_id: Number(item['sk']),
        ...(typeof item['z'] === 'string' ? { zone: item['z'] } : {}),
      }));
      return { candidates, ...lastOf(candidates, out.LastEvaluatedKey) };
    }
    // The contact listing (gsi1 projects whole contacts): topic and all-subscribed audiences are filtered by the domain.
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: TABLE_KEYS.gsi1.name,
        KeyConditionExpression: after === undefined ? 'gsi1pk = :pk' : 'gsi1pk = :pk AND gsi1sk > :after',
        ExpressionAttributeValues: {
          ':pk': keys.contactListingPk(clientId, shard),
          ...(after === undefined ? {} : { ':after': keys.contactListing(clientId, after).gsi1sk }),
        },
        Limit: limit,
      }),
    );
    const candidates = (out.Items ?? []).map((item) => {
      const contact = stripKeys<ContactRecord>(item);
      return { contact_id: contact.id, contact };
    });
    return { candidates, ...lastOf(candidates, out.LastEvaluatedKey) };
  }

  /**
   * A resend's page: one Query of the parent's recipient listing shard after contact `after` (the listing projects
   * whole executions), cut at a contact boundary, then one BatchGetItem of the counted-open markers of the e-mails
   * its completed recipients were sent.
   */
  private async nonOpenersPage(
    clientId: number,
    parentId: number,
    shard: number,
    after: number | undefined,
    limit: number,
  ): Promise<AudiencePage> {
    // '~' sorts after every digit: past all of that contact's executions.
    const afterKey =
      after === undefined
        ? undefined
        : `${keys.broadcastRecipientListing(clientId, parentId, after, 0).gsi1sk.split('#')[0]}#~`;
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: TABLE_KEYS.gsi1.name,
        KeyConditionExpression: afterKey === undefined ? 'gsi1pk = :pk' : 'gsi1pk = :pk AND gsi1sk > :after',
        ExpressionAttributeValues: {
          ':pk': keys.broadcastRecipientsPk(clientId, parentId, shard),
          ...(afterKey === undefined ? {} : { ':after': afterKey }),
        },
        Limit: limit,
      }),
    );
    const page = listingPageOf(
      (out.Items ?? []).map((item) => stripKeys<ListedRecipient>(item)),
      out.LastEvaluatedKey !== undefined,
    );
    const sent = sentEmailsOf(page.contacts);
    const markers =
      sent.length === 0
        ? []
        : await batchGetItems(
            this.db,
            this.tableName,
            sent.map((id) => keys.engagementMarker(clientId, id, 'open')),
          );
    const opened = new Set(markers.map((item) => String(item['pk']).slice(`SENT#${clientId}#`.length)));
    return nonOpenersOf(page, opened);
  }

  async writePage(
    head: EngineBroadcast,
    shard: number,
    prev: number | undefined,
    page: { last?: number; end: boolean; at: string },
    recipients: ExecutionRecord[],
  ): Promise<'written' | 'moved' | 'stopped' | 'collision'> {
    const c = head.client_id;
    const sets = ['beat_at = :at', '#done = :done'];
    if (page.last !== undefined) sets.push('#after = :last');
    const command = new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: this.tableName,
            Key: keys.broadcastSnapshotShard(c, head.id, shard),
            UpdateExpression: `SET ${sets.join(', ')} ADD #n :n`,
            ConditionExpression: prev === undefined ? 'attribute_not_exists(#after)' : '#after = :prev',
            ExpressionAttributeNames: { '#after': 'after', '#done': 'done', '#n': 'n' },
            ExpressionAttributeValues: {
              ':at': page.at,
              ':done': page.end,
              ':n': recipients.length,
              ...(page.last !== undefined ? { ':last': page.last } : {}),
              ...(prev !== undefined ? { ':prev': prev } : {}),
            },
          },
        },
        {
          // A cancel (or the end) meanwhile: nothing is written behind the cancel job's back.
          ConditionCheck: {
            TableName: this.tableName,
            Key: keys.broadcast(c, head.id),
            ConditionExpression: '#s IN (:snapshotting, :sending, :paused)',
            ExpressionAttributeNames: { '#s': 'status' },
            ExpressionAttributeValues: { ':snapshotting': 'snapshotting', ':sending': 'sending', ':paused': 'paused' },
          },
        },
        ...recipients.map((execution) => ({
          Put: {
            TableName: this.tableName,
            Item: recipientItem(execution, head.shards ?? 1),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        })),
      ],
    });
    try {
      await sendTransaction(this.db, command);
      return 'written';
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const failed = (error.CancellationReasons ?? []).findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failed === 0) return 'moved';
      if (failed === 1) return 'stopped';
      if (failed > 1) return 'collision';
      throw error;
    }
  }

  async finishShard(head: EngineBroadcast, shard: number, n: number, at: string): Promise<EngineBroadcast | undefined> {
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.broadcast(head.client_id, head.id),
          UpdateExpression:
            'SET #snap.#done = list_append(#snap.#done, :one), #snap.#total = #snap.#total + :n, updated_at = :at',
          ConditionExpression: 'attribute_exists(#snap) AND NOT contains(#snap.#done, :shard)',
          ExpressionAttributeNames: { '#snap': 'snapshot', '#done': 'done', '#total': 'total' },
          ExpressionAttributeValues: { ':one': [shard], ':shard': shard, ':n': n, ':at': at },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes ? stripKeys<EngineBroadcast>(out.Attributes) : undefined;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  async beginSending(head: EngineBroadcast, at: string): Promise<boolean> {
    return this.updateIf({
      Key: keys.broadcast(head.client_id, head.id),
      UpdateExpression: 'SET #s = :sending, updated_at = :at',
      ConditionExpression: '#s = :snapshotting',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':sending': 'sending', ':snapshotting': 'snapshotting', ':at': at },
    });
  }

  async passContext(clientId: number, broadcastId: number): Promise<PassContext> {
    const head = keys.broadcast(clientId, broadcastId);
    const pacer = keys.broadcastPacer(clientId, broadcastId);
    const profile = keys.clientProfile(clientId);
    const settings = keys.settings(clientId);
    const items = await batchGetWithConfig(
      this.db,
      this.tableName,
      this.configCache,
      [head, pacer],
      [profile, settings],
    );
    const byKey = new Map(
      items.map((item) => [keyOf(item as { pk: unknown; sk: unknown }), item as Record<string, unknown>]),
    );
    const read = <T>(key: ItemKey): T | undefined => {
      const item = byKey.get(keyOf(key));
      return item ? stripKeys<T>(item) : undefined;
    };
    const client = read<ClientRecord>(profile);
    const pacerState = read<PacerState>(pacer);
    const headState = read<EngineBroadcast>(head);
    const settingsRecord = read<SettingsRecord>(settings);
    return {
      ...(headState ? { head: headState } : {}),
      ...(pacerState ? { pacer: pacerState } : {}),
      ...(client ? { plan: client.plan } : {}),
      ...(settingsRecord ? { settings: settingsRecord } : {}),
    };
  }

  async dueAfter(head: EngineBroadcast, partition: number, after: string | undefined, limit: number) {
    return this.due(head, partition, after === undefined ? undefined : { op: '>', key: after }, limit);
  }

  async dueUpTo(head: EngineBroadcast, partition: number, upTo: string, limit: number) {
    return this.due(head, partition, { op: '<=', key: upTo }, limit);
  }

  /** One Query of one due partition (keys only), earliest first. */
  private async due(
    head: EngineBroadcast,
    partition: number,
    bound: { op: '>' | '<='; key: string } | undefined,
    limit: number,
  ): Promise<DueEntry[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: TABLE_KEYS.gsi3.name,
        KeyConditionExpression: bound ? `#pk = :pk AND #sk ${bound.op} :bound` : '#pk = :pk',
        ExpressionAttributeNames: {
          '#pk': TABLE_KEYS.gsi3.partitionKey,
          ...(bound ? { '#sk': TABLE_KEYS.gsi3.sortKey } : {}),
        },
        ExpressionAttributeValues: {
          ':pk': keys.broadcastDuePk(head.client_id, head.id, partition),
          ...(bound ? { ':bound': bound.key } : {}),
        },
        Limit: limit,
      }),
    );
    return (out.Items ?? []).flatMap((item) => {
      const key = String(item[TABLE_KEYS.gsi3.sortKey]);
      const named = keys.broadcastDueOf(key);
      return named ? [{ partition, key, ...named }] : [];
    });
  }

  async savePacer(head: EngineBroadcast, expected: number | undefined, next: PacerState): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.broadcastPacer(head.client_id, head.id), ...next },
          ConditionExpression: expected === undefined ? 'attribute_not_exists(pk)' : '#seq = :expected',
          ...(expected === undefined
            ? {}
            : { ExpressionAttributeNames: { '#seq': 'seq' }, ExpressionAttributeValues: { ':expected': expected } }),
        }),
      );
      return true;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // Refused by this very write's first attempt (its answer lost, the SDK retried)?
      if (next.token === undefined) return false;
      const out = await this.db.send(
        new GetCommand({
          TableName: this.tableName,
          Key: keys.broadcastPacer(head.client_id, head.id),
          ConsistentRead: true,
        }),
      );
      return out.Item?.['token'] === next.token;
    }
  }

  async decideContext(clientId: number, broadcastId: number) {
    const head = keys.broadcast(clientId, broadcastId);
    const rows = Array.from({ length: BROADCAST_LIMITS.variants }, (_, v) =>
      keys.statsBroadcastVariant(clientId, broadcastId, v),
    );
    // One request: the head (strongly: a winner written a moment ago is seen) and every variant's row there may be.
    const items = await batchGetItems(this.db, this.tableName, [head, ...rows]);
    const byKey = new Map(
      items.map((item) => [keyOf(item as { pk: unknown; sk: unknown }), item as Record<string, unknown>]),
    );
    const headItem = byKey.get(keyOf(head));
    const engineHead = headItem ? stripKeys<EngineBroadcast>(headItem) : undefined;
    const variants = rows
      .slice(0, engineHead?.definition.variants.length ?? 0)
      .map((key) => countsOf(byKey.get(keyOf(key))));
    return { ...(engineHead ? { head: engineHead } : {}), variants };
  }

  async writeWinner(head: EngineBroadcast, winner: BroadcastWinner): Promise<boolean> {
    return this.updateIf({
      Key: keys.broadcast(head.client_id, head.id),
      UpdateExpression: 'SET winner = :winner, updated_at = :at',
      ConditionExpression: 'attribute_not_exists(winner) AND #s IN (:snapshotting, :sending, :paused)',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: {
        ':winner': winner,
        ':at': winner.decided_at,
        ':snapshotting': 'snapshotting',
        ':sending': 'sending',
        ':paused': 'paused',
      },
    });
  }

  async finishSending(head: EngineBroadcast, at: string): Promise<boolean> {
    return this.updateIf({
      Key: keys.broadcast(head.client_id, head.id),
      UpdateExpression: 'SET #s = :sent, completed_at = :at, updated_at = :at REMOVE gsi3pk, gsi3sk',
      // A retry page written since the pass read the head put recipients behind its reads: not sent yet.
      ConditionExpression:
        head.retry_seq === undefined
          ? '#s = :sending AND attribute_not_exists(retry_seq)'
          : '#s = :sending AND retry_seq = :rs',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: {
        ':sent': 'sent',
        ':sending': 'sending',
        ':at': at,
        ...(head.retry_seq === undefined ? {} : { ':rs': head.retry_seq }),
      },
    });
  }

  async failedPage(
    clientId: number,
    broadcastId: number,
    shard: number,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ failed: ExecutionRecord[]; cursor?: string; end: boolean }> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: TABLE_KEYS.gsi1.name,
        KeyConditionExpression: cursor === undefined ? 'gsi1pk = :pk' : 'gsi1pk = :pk AND gsi1sk > :after',
        FilterExpression: '#s = :failed',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':pk': keys.broadcastRecipientsPk(clientId, broadcastId, shard),
          ':failed': EXECUTION_STATUS.failed,
          ...(cursor === undefined ? {} : { ':after': cursor }),
        },
        Limit: limit,
      }),
    );
    const last = out.LastEvaluatedKey?.[TABLE_KEYS.gsi1.sortKey];
    return {
      failed: (out.Items ?? []).map((item) => stripKeys<ExecutionRecord>(item)),
      ...(typeof last === 'string' ? { cursor: last } : {}),
      end: out.LastEvaluatedKey === undefined,
    };
  }

  async retryPage(
    head: EngineBroadcast,
    pairs: readonly { original: ExecutionRecord; next: ExecutionRecord }[],
    at: string,
  ): Promise<'written' | 'changed' | 'head'> {
    const reopen = head.status === 'sent';
    const live = keys.broadcastLiveEntry(head.client_id, head.id, at);
    const command = new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: this.tableName,
            Key: keys.broadcast(head.client_id, head.id),
            UpdateExpression: reopen
              ? 'SET #s = :sending, updated_at = :at, gsi3pk = :g3pk, gsi3sk = :g3sk REMOVE completed_at ADD retried :k, retry_seq :one'
              : 'SET updated_at = :at ADD retried :k, retry_seq :one',
            ConditionExpression: '#s = :read',
            ExpressionAttributeNames: { '#s': 'status' },
            ExpressionAttributeValues: {
              ':read': head.status,
              ':at': at,
              ':k': pairs.length,
              ':one': 1,
              ...(reopen ? { ':sending': 'sending', ':g3pk': live.gsi3pk, ':g3sk': live.gsi3sk } : {}),
            },
          },
        },
        ...pairs.flatMap(({ original, next }) => [
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
              Item: recipientItem(next, head.shards ?? 1),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ]),
      ],
    });
    try {
      await sendTransaction(this.db, command);
      return 'written';
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const failed = (error.CancellationReasons ?? []).findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failed === 0) return 'head';
      if (failed > 0) return 'changed';
      throw error;
    }
  }

  async cancelWaiting(clientId: number, executionIds: readonly number[], reason: string, at: string): Promise<number> {
    let ended = 0;
    for (let i = 0; i < executionIds.length; i += CANCEL_WAVE) {
      const wave = await Promise.all(
        executionIds.slice(i, i + CANCEL_WAVE).map((id) =>
          this.updateIf({
            Key: keys.execution(clientId, id),
            UpdateExpression:
              'SET #s = :cancelled, reason = :reason, processed_at = :at, updated_at = :at REMOVE gsi3pk, gsi3sk',
            // Still waiting for the pacer: one claimed meanwhile is left to its worker.
            ConditionExpression: '#s = :queued AND begins_with(gsi3pk, :due)',
            ExpressionAttributeNames: { '#s': 'status' },
            ExpressionAttributeValues: {
              ':cancelled': EXECUTION_STATUS.cancelled,
              ':queued': EXECUTION_STATUS.queued,
              ':reason': reason,
              ':at': at,
              ':due': keys.broadcastDuePrefix,
            },
          }),
        ),
      );
      ended += wave.filter(Boolean).length;
    }
    return ended;
  }

  async markCancelJob(head: EngineBroadcast, at: string | undefined): Promise<void> {
    await this.updateIf({
      Key: keys.broadcast(head.client_id, head.id),
      UpdateExpression: at === undefined ? 'REMOVE gsi3pk, gsi3sk' : 'SET gsi3pk = :g3pk, gsi3sk = :g3sk',
      ConditionExpression: '#s = :cancelled',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':cancelled': 'cancelled', ...(at === undefined ? {} : liveValues(head, at)) },
    });
  }

  async liveBefore(before: string, limit: number): Promise<{ client_id: number; broadcast_id: number }[]> {
    const shards = await Promise.all(
      Array.from({ length: keys.broadcastLiveShards }, async (_, shard) => {
        const out = await this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            IndexName: TABLE_KEYS.gsi3.name,
            KeyConditionExpression: '#pk = :pk AND #sk < :before',
            ExpressionAttributeNames: { '#pk': TABLE_KEYS.gsi3.partitionKey, '#sk': TABLE_KEYS.gsi3.sortKey },
            ExpressionAttributeValues: { ':pk': keys.broadcastLivePk(shard), ':before': before },
            Limit: limit,
          }),
        );
        return (out.Items ?? []).flatMap((item) => {
          const named = keys.broadcastLiveOf(String(item[TABLE_KEYS.gsi3.sortKey]));
          return named ? [{ client_id: named.client_id, broadcast_id: named.broadcast_id }] : [];
        });
      }),
    );
    return shards.flat().slice(0, limit);
  }

  async loadLive(refs: readonly { client_id: number; broadcast_id: number }[]): Promise<LiveBroadcast[]> {
    const items = await batchGetItems(
      this.db,
      this.tableName,
      refs.flatMap((r) => [
        keys.broadcast(r.client_id, r.broadcast_id),
        keys.broadcastPacer(r.client_id, r.broadcast_id),
      ]),
    );
    const byKey = new Map(
      items.map((item) => [keyOf(item as { pk: unknown; sk: unknown }), item as Record<string, unknown>]),
    );
    const heads = refs.flatMap((r) => {
      const item = byKey.get(keyOf(keys.broadcast(r.client_id, r.broadcast_id)));
      return item ? [stripKeys<EngineBroadcast>(item)] : [];
    });
    // Snapshot progress only of the shards not done yet of heads still taking recipients.
    const shardKeys = heads.flatMap((h) => {
      if (!h.snapshot) return [];
      const done = new Set(h.snapshot.done);
      return Array.from({ length: h.snapshot.sources }, (_, s) => s)
        .filter((s) => !done.has(s))
        .map((s) => keys.broadcastSnapshotShard(h.client_id, h.id, s));
    });
    const progress = shardKeys.length > 0 ? await batchGetItems(this.db, this.tableName, shardKeys) : [];
    const progressByKey = new Map(
      progress.map((item) => [keyOf(item as { pk: unknown; sk: unknown }), item as Record<string, unknown>]),
    );
    return heads.map((head) => {
      const pacer = byKey.get(keyOf(keys.broadcastPacer(head.client_id, head.id)));
      const shards: Record<string, SnapshotShard> = {};
      for (let s = 0; s < (head.snapshot?.sources ?? 0); s++) {
        const item = progressByKey.get(keyOf(keys.broadcastSnapshotShard(head.client_id, head.id, s)));
        if (item) shards[s] = stripKeys<SnapshotShard>(item);
      }
      return { head, ...(pacer ? { pacer: stripKeys<PacerState>(pacer) } : {}), shards };
    });
  }

  /** One conditional UpdateItem; false when its condition failed. */
  private async updateIf(input: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName'>): Promise<boolean> {
    try {
      await this.db.send(new UpdateCommand({ TableName: this.tableName, ...input }));
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}

/** A result row's counters (absent row: none counted yet). */
const countsOf = (item: Record<string, unknown> | undefined): Partial<StatCounts> => {
  const counts: Partial<StatCounts> = {};
  for (const name of STAT_COUNTERS) if (typeof item?.[name] === 'number') counts[name] = item[name] as number;
  return counts;
};

const liveValues = (head: EngineBroadcast, at: string) => {
  const entry = keys.broadcastLiveEntry(head.client_id, head.id, at);
  return { ':g3pk': entry.gsi3pk, ':g3sk': entry.gsi3sk };
};

/** The page's last contact id and whether the shard ends here. */
const lastOf = (
  candidates: readonly { contact_id: number }[],
  lastEvaluated: Record<string, unknown> | undefined,
): { last?: number; end: boolean } => {
  const last = candidates.at(-1)?.contact_id;
  return { ...(last !== undefined ? { last } : {}), end: lastEvaluated === undefined };
};
