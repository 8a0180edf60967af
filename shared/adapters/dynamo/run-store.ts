import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { ContactRecord } from '../../domain/contacts/contact-store.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../domain/executions/execution-record.js';
import type { JourneyIndex, JourneyVersionRecord } from '../../domain/journeys/journey-records.js';
import {
  RUN_ENDED_STATUSES,
  RUNS_IN_FLIGHT_ATTRIBUTE,
  runMarkerAttribute,
  WAITS_VERSION_ATTRIBUTE,
  waitMarkerAttribute,
  type RunRecord,
  type RunStatus,
} from '../../domain/runs/run-record.js';
import type {
  DueRun,
  DueRunPage,
  RunContactChange,
  RunReads,
  RunReadWants,
  RunStore,
  RunTransition,
  TransitionOutcome,
} from '../../domain/runs/run-store.js';
import { membershipOf } from '../../domain/runs/segment-membership.js';
import { openHoursOf } from '../../domain/tracking/open-hours.js';
import { openExecutionAttribute, openExecutionValue } from '../../domain/workflows/goals.js';
import { batchGetItems } from './batch-get.js';
import { batchGetWithConfig, type ConfigCache } from './config-cache.js';
import { executionItem } from './execution-item.js';
import { stripKeys } from './items.js';
import { keys, type ItemKey } from './keys.js';
import { segmentIndexOf, segmentStateOf } from './membership-store.js';
import { capPendingAttribute } from './quota-counter.js';
import { RUN_RETENTION_DAYS, runItem, runOf } from './run-item.js';
import { TABLE_KEYS } from './table-definition.js';
import { topicSetOf } from './topic-store.js';
import { sendTransaction } from './transactions.js';

const keyOf = (k: { pk: string; sk: string }) => `${k.pk}\u0000${k.sk}`;
/** Cap items outlive their day by two (support), then TTL removes them (as processing writes them). */
const CAP_TTL_SECONDS = 3 * 86_400;
/** Versions are immutable: a container keeps every one it read (a few KB each, bounded by the journeys it runs). */
const versionCache = new WeakMap<DynamoDBDocumentClient, Map<string, JourneyVersionRecord>>();

interface DueCursor {
  shard: number;
  key?: Record<string, unknown>;
}
const encodeCursor = (cursor: DueCursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');
const decodeCursor = (text: string): DueCursor =>
  JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as DueCursor;

/**
 * The run engine's reads and transactions (docs/capacity.md "advance a run"). A transition: one BatchGetItem (run,
 * contact, awaited execution, counted-engagement markers, the contact's SEGSTATE when a segment branch is ahead, the
 * version the message names unless the container has read it, and the client's settings, journey index, topics, open
 * hours and — with SEGSTATE — segment index unless the config cache holds them) and one TransactWriteItems whose first
 * item is the run.
 */
export class DynamoRunStore implements RunStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** The container's copy of client configuration (settings, journey index, topics, open hours). */
    private readonly configCache?: ConfigCache,
  ) {}

  async read(clientId: number, wants: RunReadWants): Promise<RunReads> {
    const own = {
      run: wants.runId === undefined ? undefined : keys.run(clientId, wants.runId),
      contact: wants.contactId === undefined ? undefined : keys.contact(clientId, wants.contactId),
      execution: wants.executionId === undefined ? undefined : keys.execution(clientId, wants.executionId),
    };
    const markers = (wants.sentEmailIds ?? []).flatMap((id) => [
      { id, kind: 'open' as const, key: keys.engagementMarker(clientId, id, 'open') },
      { id, kind: 'click' as const, key: keys.engagementMarker(clientId, id, 'click') },
    ]);
    const config = wants.config
      ? {
          settings: keys.settings(clientId),
          index: keys.journeyIndex(clientId),
          topics: keys.topics(clientId),
          openHours: keys.clientOpenHours(clientId),
        }
      : undefined;
    // A segment branch ahead: the contact's SEGSTATE (every membership is on that one item) and the segment index,
    // which is configuration (cached), so a deleted segment reads as no one's.
    const segments = wants.segments
      ? { state: keys.segmentState(clientId, wants.segments.contactId), index: keys.segmentIndex(clientId) }
      : undefined;
    // The versions the message names that this container has not read: in the same request (strongly consistent
    // like the rest; either read of an immutable item is exact).
    const asked = wants.versions;
    const versions = asked ? this.versionCache(clientId, asked.journeyId) : undefined;
    const versionKeys = (asked?.versions ?? [])
      .filter((v) => !versions?.has(v))
      .map((v) => ({ version: v, key: keys.journeyVersion(clientId, asked!.journeyId, v) }));
    const other = [
      ...Object.values(own).filter((k): k is ItemKey => k !== undefined),
      ...markers.map((m) => m.key),
      ...(segments ? [segments.state] : []),
      ...versionKeys.map((v) => v.key),
    ];
    const configKeys = [...(config ? Object.values(config) : []), ...(segments ? [segments.index] : [])];
    const items =
      configKeys.length > 0
        ? await batchGetWithConfig(this.db, this.tableName, this.configCache, other, configKeys)
        : await batchGetItems(this.db, this.tableName, other);
    const byKey = new Map(items.map((item) => [keyOf(item as unknown as ItemKey), item]));
    const item = (key: ItemKey | undefined) => (key ? byKey.get(keyOf(key)) : undefined);
    const engagement: RunReads['engagement'] = {};
    for (const m of markers) {
      const seen = engagement[m.id] ?? { opened: false, clicked: false };
      if (item(m.key)) seen[m.kind === 'open' ? 'opened' : 'clicked'] = true;
      engagement[m.id] = seen;
    }
    for (const v of versionKeys) {
      const found = item(v.key);
      if (found) versions?.set(v.version, stripKeys<JourneyVersionRecord>(found));
    }
    const run = item(own.run);
    const contact = item(own.contact);
    const execution = item(own.execution);
    const reads: RunReads = {
      ...(run ? { run: runOf(run) } : {}),
      ...(contact ? { contact: stripKeys<ContactRecord>(contact) } : {}),
      ...(execution ? { execution: stripKeys<ExecutionRecord>(execution) } : {}),
      engagement,
      ...(segments && wants.segments
        ? {
            segments: membershipOf(
              segmentStateOf(item(segments.state))?.members,
              segmentIndexOf(item(segments.index)),
              wants.segments.segmentIds,
            ),
          }
        : {}),
      ...(asked && versions ? { versions: versions.pick(asked.versions) } : {}),
    };
    if (!config) return reads;
    const settings = item(config.settings);
    const index = item(config.index);
    const topics = item(config.topics);
    const openHours = item(config.openHours);
    return {
      ...reads,
      ...(settings ? { settings: stripKeys(settings) } : {}),
      ...(index ? { index: stripKeys<JourneyIndex>(index) } : {}),
      ...(topics ? { topics: topicSetOf(topics) } : {}),
      ...(openHours ? { clientOpenHours: openHoursOf(openHours) } : {}),
    };
  }

  /** One BatchGetItem for the versions this container has not read yet; none when it has them all. */
  async versions(clientId: number, journeyId: number, versions: readonly number[]): Promise<JourneyVersionRecord[]> {
    const cache = this.versionCache(clientId, journeyId);
    const missing = versions.filter((v) => !cache.has(v));
    if (missing.length > 0) {
      const items = await batchGetItems(
        this.db,
        this.tableName,
        missing.map((v) => keys.journeyVersion(clientId, journeyId, v)),
        // Written once before any run can name it, never changed: an eventually consistent read is exact.
        { consistentRead: false },
      );
      for (const item of items) {
        const record = stripKeys<JourneyVersionRecord>(item);
        cache.set(record.version, record);
      }
    }
    return cache.pick(versions);
  }

  /** The container's versions of one journey (shared by every store on this client: versions never change). */
  private versionCache(clientId: number, journeyId: number) {
    const all = versionCache.get(this.db) ?? new Map<string, JourneyVersionRecord>();
    versionCache.set(this.db, all);
    const name = (v: number) => `${clientId}#${journeyId}#${v}`;
    return {
      has: (v: number) => all.has(name(v)),
      set: (v: number, record: JourneyVersionRecord) => all.set(name(v), record),
      pick: (versions: readonly number[]) =>
        versions.flatMap((v) => {
          const record = all.get(name(v));
          return record ? [record] : [];
        }),
    };
  }

  async transition(t: RunTransition): Promise<TransitionOutcome> {
    const withLock = await this.tryTransition(t);
    if (withLock !== 'lock_moved') return withLock;
    // The lock a newer run took after this one's expired (TTL): it is that run's, left alone.
    const withoutLock = await this.tryTransition({ ...t, releaseLock: undefined });
    if (withoutLock === 'lock_moved') throw new Error('unreachable: no lock in the transaction');
    return withoutLock;
  }

  private async tryTransition(t: RunTransition): Promise<TransitionOutcome | 'lock_moved'> {
    const c = t.run.client_id;
    const executions = t.executions ?? [];
    const contact = t.contact ? contactUpdateOf(this.tableName, c, t.contact) : undefined;
    const caps = capPendingOf(this.tableName, executions);
    const lock = t.releaseLock
      ? {
          Update: {
            TableName: this.tableName,
            Key: keys.runLock(c, t.releaseLock.journeyId, t.releaseLock.contactId, t.releaseLock.keyHash),
            UpdateExpression: 'SET active = :f',
            ConditionExpression: 'run_id = :run',
            ExpressionAttributeValues: { ':f': false, ':run': t.run.id },
          },
        }
      : undefined;
    const items = [
      {
        // The whole run through runItem (its due index entry and TTL follow its status), only at the seq read.
        Put: {
          TableName: this.tableName,
          Item: runItem(t.run),
          ConditionExpression: 'seq = :s AND #status IN (:active, :waiting)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':s': t.expectedSeq, ':active': 'active', ':waiting': 'waiting' },
        },
      },
      ...(contact ? [contact] : []),
      ...executions.map((e) => ({
        Put: { TableName: this.tableName, Item: executionItem(e), ConditionExpression: 'attribute_not_exists(pk)' },
      })),
      ...caps,
      ...(lock ? [lock] : []),
    ];
    try {
      await sendTransaction(this.db, new TransactWriteCommand({ TransactItems: items }));
      return 'committed';
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const failed = (i: number) => error.CancellationReasons?.[i]?.Code === 'ConditionalCheckFailed';
      if (failed(0)) return 'stale';
      if (contact && failed(1)) return 'contact_changed';
      if (lock && failed(items.length - 1)) return 'lock_moved';
      throw error;
    }
  }

  async dueBefore(before: string, limit: number, cursor?: string): Promise<DueRunPage> {
    return this.duePage(before, limit, cursor);
  }

  async allDue(limit: number, cursor?: string): Promise<DueRunPage> {
    return this.duePage(undefined, limit, cursor);
  }

  /**
   * The RUNDUE index (8 shards, keys only), each shard by due time, then the runs' seq in one BatchGetItem per 100:
   * a message must carry the run's current seq. Runs found ended meanwhile (the index lags its table) are left out.
   */
  private async duePage(before: string | undefined, limit: number, cursor?: string): Promise<DueRunPage> {
    const start = cursor ? decodeCursor(cursor) : { shard: 0 };
    const named: { client_id: number; run_id: number; due_at: string }[] = [];
    let shard = start.shard;
    let key = start.key;
    while (shard < keys.runDueShards && named.length < limit) {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: TABLE_KEYS.gsi3.name,
          KeyConditionExpression: before === undefined ? '#pk = :pk' : '#pk = :pk AND #sk < :before',
          ExpressionAttributeNames: {
            '#pk': TABLE_KEYS.gsi3.partitionKey,
            ...(before === undefined ? {} : { '#sk': TABLE_KEYS.gsi3.sortKey }),
          },
          ExpressionAttributeValues: {
            ':pk': keys.runDuePk(shard),
            ...(before === undefined ? {} : { ':before': before }),
          },
          Limit: limit - named.length,
          ExclusiveStartKey: key,
        }),
      );
      for (const item of page.Items ?? []) {
        const entry = keys.runDueOf(String(item[TABLE_KEYS.gsi3.sortKey]));
        if (entry) named.push(entry);
      }
      key = page.LastEvaluatedKey;
      if (!key) shard += 1;
    }
    const items = await batchGetItems(
      this.db,
      this.tableName,
      named.map((n) => keys.run(n.client_id, n.run_id)),
      { attributes: ['client_id', 'id', 'seq', 'status', 'contact_id', 'due_at', 'wait', 'journey_id', 'version'] },
    );
    const runs: DueRun[] = items
      .filter((item) => !RUN_ENDED_STATUSES.includes(item['status'] as RunStatus) && item['due_at'] !== undefined)
      .map((item) => {
        const wait = item['wait'] as RunRecord['wait'];
        return {
          client_id: Number(item['client_id']),
          run_id: Number(item['id']),
          seq: Number(item['seq']),
          contact_id: Number(item['contact_id']),
          due_at: String(item['due_at']),
          journey_id: Number(item['journey_id']),
          version: Number(item['version']),
          ...(wait?.kind === 'send' && wait.execution_id !== undefined ? { execution_id: wait.execution_id } : {}),
        };
      })
      .sort((a, b) => a.due_at.localeCompare(b.due_at));
    const more = shard < keys.runDueShards;
    return { runs, ...(more ? { cursor: encodeCursor({ shard, key }) } : {}) };
  }

  /**
   * The runs of an erased contact (its history, gsi2 RUN#), read in one BatchGetItem per 100; each one still active or
   * waiting ends `contact_erased` (conditioned on its seq: one moved meanwhile is read again), every one loses its
   * trigger event and key value, and each run's lock is deleted. One UpdateItem and one DeleteItem per run.
   */
  async eraseRuns(clientId: number, runIds: readonly number[], at: string): Promise<{ runs: number; ended: number }> {
    let ended = 0;
    let found = 0;
    let pending: ItemKey[] = runIds.map((id) => keys.run(clientId, id));
    for (let attempt = 1; pending.length > 0; attempt += 1) {
      const items = await batchGetItems(this.db, this.tableName, pending, {
        attributes: ['client_id', 'id', 'journey_id', 'contact_id', 'key_hash', 'seq', 'status'],
      });
      if (attempt === 1) found = items.length;
      const moved: ItemKey[] = [];
      await Promise.all(
        items.map(async (item) => {
          const run = item as Pick<RunRecord, 'client_id' | 'id' | 'journey_id' | 'contact_id' | 'key_hash' | 'seq'> & {
            status: RunStatus;
          };
          const outcome = await this.eraseRun(run, at);
          if (outcome === 'moved') moved.push(keys.run(run.client_id, run.id));
          if (outcome === 'ended') ended += 1;
        }),
      );
      if (moved.length > 0 && attempt >= 3)
        throw new Error('could not end the erased contact’s runs: they kept moving');
      pending = moved;
    }
    return { runs: found, ended };
  }

  private async eraseRun(
    run: Pick<RunRecord, 'client_id' | 'id' | 'journey_id' | 'contact_id' | 'key_hash' | 'seq'> & { status: RunStatus },
    at: string,
  ): Promise<'ended' | 'scrubbed' | 'moved'> {
    const inFlight = !RUN_ENDED_STATUSES.includes(run.status);
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.run(run.client_id, run.id),
          UpdateExpression: inFlight
            ? 'SET #status = :ended, #reason = :reason, #seq = :next, ended_at = :at, updated_at = :at, expires_at = :exp ' +
              'REMOVE #event, key_value, due_at, #wait, resumed_by, gsi3pk, gsi3sk'
            : 'REMOVE #event, key_value',
          ConditionExpression: '#seq = :s',
          ExpressionAttributeNames: {
            '#event': 'event',
            '#seq': 'seq',
            ...(inFlight ? { '#status': 'status', '#reason': 'reason', '#wait': 'wait' } : {}),
          },
          ExpressionAttributeValues: {
            ':s': run.seq,
            ...(inFlight
              ? {
                  ':ended': 'ended',
                  ':reason': 'contact_erased',
                  ':next': run.seq + 1,
                  ':at': at,
                  ':exp': Math.floor(Date.parse(at) / 1000) + RUN_RETENTION_DAYS * 86_400,
                }
              : {}),
          },
        }),
      );
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return 'moved';
      throw error;
    }
    await this.db.send(
      new DeleteCommand({
        TableName: this.tableName,
        Key: keys.runLock(run.client_id, run.journey_id, run.contact_id, run.key_hash),
      }),
    );
    return inFlight ? 'ended' : 'scrubbed';
  }
}

/**
 * The contact's side of a transition: fields and whole values an update_contact step set (conditioned on the
 * `updated_at` read, so a concurrent change is not overwritten), the wait marker and `waits_v`, the run's markers
 * removed at its end, and a send's queued execution listed as processing lists one.
 */
export function contactUpdateOf(tableName: string, clientId: number, change: RunContactChange) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const adds: string[] = [];
  const removes: string[] = [];
  let n = 0;
  const name = (attribute: string) => {
    const alias = `#a${n++}`;
    names[alias] = attribute;
    return alias;
  };
  const value = (v: unknown) => {
    const alias = `:v${n++}`;
    values[alias] = v;
    return alias;
  };
  for (const [field, v] of Object.entries(change.fields ?? {})) {
    if (v === null) removes.push(name(field));
    else sets.push(`${name(field)} = ${value(v)}`);
  }
  if (change.tags) sets.push(`${name('tags')} = ${value(change.tags)}`);
  if (change.customFields) sets.push(`${name('custom_fields')} = ${value(change.customFields)}`);
  if (change.fields || change.tags || change.customFields) sets.push(`${name('updated_at')} = ${value(change.at)}`);
  if (change.wait) {
    sets.push(`${name(waitMarkerAttribute(change.wait.runId))} = ${value(change.wait.marker)}`);
    adds.push(`${name(WAITS_VERSION_ATTRIBUTE)} ${value(1)}`);
  } else if (change.removeWait !== undefined) removes.push(name(waitMarkerAttribute(change.removeWait)));
  if (change.removeRun !== undefined) {
    removes.push(name(runMarkerAttribute(change.removeRun)));
    // The run counter follows its markers (the processing commit conditions new runs on it); a contact whose runs
    // all started before the counter existed has none, and this end starts it at 0 rather than below.
    const counter = name(RUNS_IN_FLIGHT_ATTRIBUTE);
    const one = value(1);
    sets.push(`${counter} = if_not_exists(${counter}, ${one}) - ${one}`);
  }
  if (change.opened) {
    sets.push(
      `${name(openExecutionAttribute(change.opened.execution_id))} = ${value(openExecutionValue(change.opened))}`,
    );
    adds.push(`${name('active_workflow_count')} ${value(1)}`);
  }
  const expression = [
    sets.length > 0 ? `SET ${sets.join(', ')}` : '',
    adds.length > 0 ? `ADD ${adds.join(', ')}` : '',
    removes.length > 0 ? `REMOVE ${removes.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const conditions = ['attribute_exists(pk)'];
  if (change.seenUpdatedAt !== undefined) conditions.push(`${name('updated_at')} = ${value(change.seenUpdatedAt)}`);
  return {
    Update: {
      TableName: tableName,
      Key: keys.contact(clientId, change.contactId),
      UpdateExpression: expression,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
    },
  };
}

/** Each queued, non-critical execution waits for a slot of its contact's day (its priority decides), as processing's. */
function capPendingOf(tableName: string, executions: readonly ExecutionRecord[]) {
  const byKey = new Map<string, { key: ItemKey; entries: ExecutionRecord[] }>();
  for (const e of executions) {
    if (e.status !== EXECUTION_STATUS.queued || e.critical) continue;
    const key = keys.contactDayCap(e.client_id, e.contact_id, e.cap_day);
    const group = byKey.get(key.pk) ?? { key, entries: [] };
    group.entries.push(e);
    byKey.set(key.pk, group);
  }
  return [...byKey.values()].map(({ key, entries }) => ({
    Update: {
      TableName: tableName,
      Key: key,
      UpdateExpression: `SET expires_at = :exp, ${entries.map((_, i) => `#e${i} = :p${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map((e, i) => [`#e${i}`, capPendingAttribute(e.id)])),
      ExpressionAttributeValues: {
        ':exp': Math.floor(Date.parse(entries[0]!.scheduled_for) / 1000) + CAP_TTL_SECONDS,
        ...Object.fromEntries(entries.map((e, i) => [`:p${i}`, e.priority_score])),
      },
    },
  }));
}
