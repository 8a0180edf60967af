import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ContactRecord } from '../../domain/contacts/contact-store.js';
import type { JourneyIndex } from '../../domain/journeys/journey-records.js';
import type { ContactCounters } from '../../domain/segments/definition/types.js';
import type {
  DueContact,
  MembershipRead,
  MembershipStore,
  MembershipTransition,
  SegmentIndex,
  SegmentState,
} from '../../domain/segments/membership-store.js';
import { engagementSourcesOf } from '../../domain/segments/definition/specs.js';
import { batchGetItems } from './batch-get.js';
import { batchGetWithConfig, cacheKeyOf, type ConfigCache } from './config-cache.js';
import { engagementKeysOf, engagementOf } from './engagement-facts.js';
import { eventItem } from './event-store.js';
import { stripKeys } from './items.js';
import { keys, type ItemKey } from './keys.js';
import { TABLE_KEYS } from './table-definition.js';
import { topicSetOf } from './topic-store.js';
import { sendTransaction } from './transactions.js';

type Item = Record<string, unknown>;

/** DynamoDB's bound on one TransactWriteItems. */
const MAX_TRANSACTION_ITEMS = 100;

const MEMBER_PREFIX = 'm_';
const RECENT_PREFIX = 'evs_';
const TOTAL_PREFIX = 'evn_';

/** The SEGSTATE attribute of one segment's membership (`m_<sid>` = the segment version entered under). */
export const memberAttribute = (segmentId: number): string => `${MEMBER_PREFIX}${segmentId}`;
/** The EVCOUNT attributes of one event spec: its newest times and its all-time count. */
export const recentAttribute = (specId: string): string => `${RECENT_PREFIX}${specId}`;
export const totalAttribute = (specId: string): string => `${TOTAL_PREFIX}${specId}`;

/** A contact's counters from its EVCOUNT item (absent item: none). */
export function countersOf(item: Item | undefined): ContactCounters | undefined {
  if (!item) return undefined;
  const counters: ContactCounters = { ev_v: Number(item['ev_v'] ?? 0), recent: {}, total: {} };
  for (const [name, value] of Object.entries(item)) {
    if (name.startsWith(RECENT_PREFIX) && Array.isArray(value))
      counters.recent[name.slice(RECENT_PREFIX.length)] = value.map(Number);
    else if (name.startsWith(TOTAL_PREFIX) && typeof value === 'number')
      counters.total[name.slice(TOTAL_PREFIX.length)] = value;
  }
  return counters;
}

/** A contact's segment state from its SEGSTATE item (absent item: none). */
export function segmentStateOf(item: Item | undefined): SegmentState | undefined {
  if (!item) return undefined;
  const members: Record<number, number> = {};
  for (const [name, value] of Object.entries(item)) {
    const id = /^m_(\d+)$/.exec(name)?.[1];
    if (id !== undefined && typeof value === 'number') members[Number(id)] = value;
  }
  return {
    sv: Number(item['sv'] ?? 0),
    members,
    ...(typeof item['z'] === 'string' ? { z: item['z'] } : {}),
    ...(typeof item['next_eval_at'] === 'string' ? { next_eval_at: item['next_eval_at'] } : {}),
  };
}

/** The client's segment index from its SEGMENTINDEX item (absent item: none). */
export function segmentIndexOf(item: Item | undefined): SegmentIndex | undefined {
  if (!item) return undefined;
  const body = stripKeys<Partial<SegmentIndex>>(item);
  return {
    version: Number(body.version ?? 0),
    segments: body.segments ?? [],
    specs: body.specs ?? [],
    watched: body.watched ?? [],
  };
}

const keyOf = (k: ItemKey) => `${k.pk}\u0000${k.sk}`;

/** The sources whose engagement items an evaluation reads: those the index's segments name, and `extra`. */
const sourcesOf = (index: SegmentIndex | undefined, extra: readonly string[] | undefined): string[] => [
  ...new Set([...engagementSourcesOf((index?.segments ?? []).map((s) => s.definition)), ...(extra ?? [])]),
];

/**
 * Segment membership in the table: SEGSTATE beside each contact (not streamed), member entries in 16 partitions a
 * segment (entity `segment_member`: the day-counters projection counts them into the segment's gauge), the sparse
 * SEGDUE entry of a contact whose edge is ahead. The index and the topics are read through the configuration cache.
 */
export class DynamoMembershipStore implements MembershipStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly configCache?: ConfigCache,
  ) {}

  async index(clientId: number): Promise<SegmentIndex | undefined> {
    const key = keys.segmentIndex(clientId);
    const items = await batchGetWithConfig(this.db, this.tableName, this.configCache, [], [key]);
    return segmentIndexOf(items.find((item) => keyOf(item as unknown as ItemKey) === keyOf(key)));
  }

  async read(
    clientId: number,
    contactIds: readonly number[],
    options: { freshIndex?: boolean; sources?: readonly string[] } = {},
  ): Promise<MembershipRead> {
    // The engagement items read depend on the index: a cached copy says which before the wave (no request); without
    // one, the wave reads the index and a second wave the items of the sources it names (none named: no second wave).
    const held = options.freshIndex ? undefined : this.configCache?.take([keys.segmentIndex(clientId)]).cached;
    const cached = segmentIndexOf(held?.get(cacheKeyOf(keys.segmentIndex(clientId))) ?? undefined);
    const sources = sourcesOf(cached, options.sources);
    const perContact = contactIds.map((id) => ({
      id,
      contact: keys.contact(clientId, id),
      counters: keys.contactCounters(clientId, id),
      state: keys.segmentState(clientId, id),
    }));
    const indexKey = keys.segmentIndex(clientId);
    const topicsKey = keys.topics(clientId);
    // The journey index rides the configuration read (no request of its own when cached): it says which moves a
    // live journey listens to.
    const journeyIndexKey = keys.journeyIndex(clientId);
    const items = await batchGetWithConfig(
      this.db,
      this.tableName,
      this.configCache,
      [
        ...perContact.flatMap((c) => [c.contact, c.counters, c.state, ...engagementKeysOf(clientId, c.id, sources)]),
        ...(options.freshIndex ? [indexKey] : []),
      ],
      options.freshIndex ? [topicsKey, journeyIndexKey] : [indexKey, topicsKey, journeyIndexKey],
    );
    const byKey = new Map(items.map((item) => [keyOf(item as unknown as ItemKey), item]));
    const topics = byKey.get(keyOf(topicsKey));
    const index = segmentIndexOf(byKey.get(keyOf(indexKey)));
    // A fresh index may name sources the cached one did not: their items in a second wave.
    const more = sourcesOf(index, options.sources).filter((s) => !sources.includes(s));
    if (more.length > 0) {
      const extra = await batchGetItems(
        this.db,
        this.tableName,
        perContact.flatMap((c) => engagementKeysOf(clientId, c.id, more)),
      );
      for (const item of extra) byKey.set(keyOf(item as unknown as ItemKey), item);
    }
    const allSources = [...sources, ...more];
    const journeyIndex = byKey.get(keyOf(journeyIndexKey));
    return {
      ...(index ? { index } : {}),
      ...(topics ? { topics: topicSetOf(topics) } : {}),
      ...(journeyIndex ? { journeyIndex: stripKeys<JourneyIndex>(journeyIndex) } : {}),
      contacts: perContact.map((c) => {
        const contact = byKey.get(keyOf(c.contact));
        const counters = countersOf(byKey.get(keyOf(c.counters)));
        const state = segmentStateOf(byKey.get(keyOf(c.state)));
        const engagement = engagementOf(byKey, clientId, c.id, allSources);
        return {
          contactId: c.id,
          ...(contact ? { contact: stripKeys<ContactRecord>(contact) } : {}),
          ...(counters ? { counters } : {}),
          ...(engagement ? { engagement } : {}),
          ...(state ? { state } : {}),
        };
      }),
    };
  }

  async commit(transitions: readonly MembershipTransition[]): Promise<{ conflicts: number[] }> {
    const conflicts: number[] = [];
    let pending = [...transitions];
    // A cancelled transaction wrote nothing: its transitions whose own condition held are sent again without the
    // ones that failed (at most once per conflicting contact, so this ends).
    while (pending.length > 0) {
      const groups = packed(pending.map((t) => ({ t, items: this.itemsOf(t) })));
      const outcomes = await Promise.all(groups.map((group) => this.send(group)));
      pending = [];
      for (const outcome of outcomes) {
        conflicts.push(...outcome.conflicts);
        pending.push(...outcome.retry);
      }
    }
    return { conflicts };
  }

  async due(
    shard: number,
    until: string,
    limit: number,
    cursor?: string,
  ): Promise<{ contacts: DueContact[]; cursor?: string }> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: TABLE_KEYS.gsi3.name,
        KeyConditionExpression: '#pk = :pk AND #sk < :until',
        ExpressionAttributeNames: { '#pk': TABLE_KEYS.gsi3.partitionKey, '#sk': TABLE_KEYS.gsi3.sortKey },
        // Every entry due at `until` itself too: its sort key continues with `#<client>`.
        ExpressionAttributeValues: { ':pk': keys.segmentDuePk(shard), ':until': `${until}#~` },
        Limit: limit,
        ...(cursor ? { ExclusiveStartKey: JSON.parse(Buffer.from(cursor, 'base64url').toString()) } : {}),
      }),
    );
    const contacts = (out.Items ?? []).flatMap((item) => {
      const entry = keys.segmentDueOf(String(item[TABLE_KEYS.gsi3.sortKey]));
      return entry ? [entry] : [];
    });
    return {
      contacts,
      ...(out.LastEvaluatedKey
        ? { cursor: Buffer.from(JSON.stringify(out.LastEvaluatedKey)).toString('base64url') }
        : {}),
    };
  }

  private async send(group: { t: MembershipTransition; items: unknown[] }[]) {
    try {
      await sendTransaction(
        this.db,
        new TransactWriteCommand({ TransactItems: group.flatMap((g) => g.items) as never }),
      );
      return { conflicts: [], retry: [] };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const conflicts: number[] = [];
      const retry: MembershipTransition[] = [];
      let position = 0;
      for (const { t, items } of group) {
        // The state item comes first: its condition (or a concurrent write to it) is the contact's conflict.
        const code = reasons[position]?.Code;
        if (code && code !== 'None') conflicts.push(t.contactId);
        else retry.push(t);
        position += items.length;
      }
      if (conflicts.length === 0) throw error;
      return { conflicts, retry };
    }
  }

  /** One transition's items, its state first. */
  private itemsOf(t: MembershipTransition): unknown[] {
    const stateKey = keys.segmentState(t.clientId, t.contactId);
    const condition =
      t.svRead === undefined
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : { ConditionExpression: 'sv = :sv', ExpressionAttributeValues: { ':sv': t.svRead } };
    const stateItem =
      t.state === null
        ? { Delete: { TableName: this.tableName, Key: stateKey, ...condition } }
        : {
            Put: {
              TableName: this.tableName,
              Item: {
                ...stateKey,
                sv: t.state.sv,
                ...Object.fromEntries(
                  Object.entries(t.state.members).map(([id, version]) => [memberAttribute(Number(id)), version]),
                ),
                ...(t.state.z !== undefined ? { z: t.state.z } : {}),
                ...(t.state.next_eval_at !== undefined
                  ? {
                      next_eval_at: t.state.next_eval_at,
                      ...keys.segmentDueEntry(t.clientId, t.contactId, t.state.next_eval_at),
                    }
                  : {}),
              },
              ...condition,
            },
          };
    const zone = t.state?.z;
    return [
      stateItem,
      ...t.entered.map((segmentId) => ({
        Put: {
          TableName: this.tableName,
          Item: {
            ...keys.segmentMember(t.clientId, segmentId, t.contactId),
            client_id: t.clientId,
            segment_id: segmentId,
            contact_id: t.contactId,
            ...(zone !== undefined ? { z: zone } : {}),
            at: t.at,
          },
        },
      })),
      // A kept membership whose contact moved to another zone: the entry takes the new zone (and is made whole if
      // it was ever missing), keeping when it was entered.
      ...t.rezoned.map((segmentId) => {
        const { pk, sk, entity } = keys.segmentMember(t.clientId, segmentId, t.contactId);
        return {
          Update: {
            TableName: this.tableName,
            Key: { pk, sk },
            UpdateExpression: `SET entity = :e, client_id = :c, segment_id = :s, contact_id = :ct, #at = if_not_exists(#at, :at)${zone !== undefined ? ', z = :z' : ' REMOVE z'}`,
            ExpressionAttributeNames: { '#at': 'at' },
            ExpressionAttributeValues: {
              ':e': entity,
              ':c': t.clientId,
              ':s': segmentId,
              ':ct': t.contactId,
              ':at': t.at,
              ...(zone !== undefined ? { ':z': zone } : {}),
            },
          },
        };
      }),
      ...t.left.map((segmentId) => {
        const { pk, sk } = keys.segmentMember(t.clientId, segmentId, t.contactId);
        return { Delete: { TableName: this.tableName, Key: { pk, sk } } };
      }),
      // The moves a live journey listens to, as queued events (an id drawn twice fails the transaction: the message
      // comes back and draws again).
      ...(t.events ?? []).map((event) => ({
        Put: { TableName: this.tableName, Item: eventItem(event), ConditionExpression: 'attribute_not_exists(pk)' },
      })),
    ];
  }
}

/** Transitions packed into transactions of at most 100 items, each transition whole in one. */
function packed<T extends { items: unknown[] }>(list: readonly T[]): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const entry of list) {
    if (size + entry.items.length > MAX_TRANSACTION_ITEMS && current.length > 0) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(entry);
    size += entry.items.length;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
