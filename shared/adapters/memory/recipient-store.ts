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
import { duePartitionOf } from '../../domain/broadcasts/engine/due-partitions.js';
import type { SettingsRecord } from '../../domain/settings/settings-store.js';
import type { StatCounts } from '../../domain/stats/stats-counters.js';
import { EMPTY_TOPIC_SET, type TopicSet } from '../../domain/topics/topic-store.js';
import { clientKey, copy, MemoryEngineData, sentEmailKey } from './engine-data.js';

/** Source shards of the audiences, as the table spreads them (segment member partitions, contact listing shards). */
const SEGMENT_SHARDS = 16;
const CONTACT_SHARDS = 8;
const LIVE = new Set(['scheduled', 'snapshotting', 'sending', 'paused', 'cancelled']);

const pad16 = (n: number) => n.toString().padStart(16, '0');
/** A recipient's due-index key, as the table's (`<scheduled_for>#<pad16 id>`). */
const dueKeyOf = (e: ExecutionRecord) => `${e.scheduled_for}#${pad16(e.id)}`;
/** A recipient's listing key, as the table's (`<pad12 contact>#<pad16 id>`). */
const listingKeyOf = (e: ExecutionRecord) => `${e.contact_id.toString().padStart(12, '0')}#${pad16(e.id)}`;

/**
 * RecipientStore in memory, with the DynamoDB adapter's contract: a page's writes happen together or not at all
 * (no `await` between its checks and its writes), conditioned on the shard's cursor and the head's state; the due index
 * is the set of recipients queued and not claimed (tests release them by `claim`, as the executor's claim does).
 */
export class MemoryRecipientStore implements RecipientStore {
  readonly heads = new Map<string, EngineBroadcast>();
  readonly shardProgress = new Map<string, SnapshotShard>();
  readonly pacers = new Map<string, PacerState>();
  /** Segment members: `<client>:<segment>` → contact id → its zone. */
  readonly members = new Map<string, Map<number, string | undefined>>();
  /** The contacts the listing holds, by client. */
  readonly contacts = new Map<number, ContactRecord[]>();
  /** Executions waiting in a due index: execution key → due key and partition. */
  readonly due = new Map<string, { client_id: number; broadcast_id: number; partition: number; key: string }>();
  /** Live entries: broadcast key → next check. */
  readonly live = new Map<string, string>();
  settings: SettingsRecord | undefined;
  topics: TopicSet = EMPTY_TOPIC_SET;
  plan = 'scale';
  /** A/B result rows as the day-counters projection keeps them: `<client>:<broadcast>` → counts per variant. */
  readonly variantCounts = new Map<string, Partial<StatCounts>[]>();
  /** Every write attempted (page transactions count one), for request budgets. */
  writes = 0;

  constructor(readonly data: MemoryEngineData = new MemoryEngineData()) {}

  /** Puts a broadcast head (scheduled, with its live entry). */
  put(head: EngineBroadcast, liveAt = '1970-01-01T00:00:00.000Z'): void {
    this.heads.set(clientKey(head.client_id, head.id), copy(head));
    this.live.set(clientKey(head.client_id, head.id), liveAt);
  }

  /** The executor's claim took the recipient: it leaves the due index. */
  claim(clientId: number, executionId: number): void {
    this.due.delete(clientKey(clientId, executionId));
  }

  async decideContext(clientId: number, broadcastId: number) {
    const head = await this.head(clientId, broadcastId);
    const counted = this.variantCounts.get(clientKey(clientId, broadcastId)) ?? [];
    const variants = Array.from({ length: head?.definition.variants.length ?? 0 }, (_, v) => ({ ...counted[v] }));
    return { ...(head ? { head } : {}), variants };
  }

  async writeWinner(head: EngineBroadcast, winner: BroadcastWinner): Promise<boolean> {
    this.writes += 1;
    const current = this.heads.get(clientKey(head.client_id, head.id));
    if (!current || current.winner || !['snapshotting', 'sending', 'paused'].includes(current.status)) return false;
    this.heads.set(clientKey(head.client_id, head.id), { ...current, winner: copy(winner) });
    return true;
  }

  async head(clientId: number, broadcastId: number): Promise<EngineBroadcast | undefined> {
    const head = this.heads.get(clientKey(clientId, broadcastId));
    return head && copy(head);
  }

  sourceShards(audience: AudienceSource): number {
    if ('resend_of' in audience) return SEGMENT_SHARDS;
    return 'segment_id' in audience ? SEGMENT_SHARDS : CONTACT_SHARDS;
  }

  async audienceEstimate(clientId: number, audience: AudienceSource): Promise<number | undefined> {
    if ('resend_of' in audience) return this.heads.get(clientKey(clientId, audience.resend_of))?.snapshot?.total;
    return 'segment_id' in audience ? this.members.get(`${clientId}:${audience.segment_id}`)?.size : undefined;
  }

  async startSnapshot(head: EngineBroadcast, gen: number, startedAt: string, shards: number, sources: number) {
    this.writes += 1;
    const current = this.heads.get(clientKey(head.client_id, head.id));
    if (current?.status !== 'scheduled' || current.draft_version !== gen) return false;
    Object.assign(current, {
      status: 'snapshotting',
      started_at: startedAt,
      shards,
      snapshot: { sources, done: [], total: 0 },
    });
    this.live.set(clientKey(head.client_id, head.id), startedAt);
    return true;
  }

  async pageContext(clientId: number, broadcastId: number, shard: number): Promise<PageContext> {
    const progress = this.shardProgress.get(`${clientKey(clientId, broadcastId)}:${shard}`);
    const head = await this.head(clientId, broadcastId);
    return {
      ...(head ? { head } : {}),
      ...(progress ? { shard: copy(progress) } : {}),
      ...(this.settings ? { settings: this.settings } : {}),
      topics: this.topics,
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
    const all =
      'segment_id' in audience
        ? [...(this.members.get(`${clientId}:${audience.segment_id}`) ?? new Map()).entries()]
            .filter(([id]) => id % SEGMENT_SHARDS === shard)
            .map(([id, zone]) => ({ contact_id: id, ...(zone ? { zone } : {}) }))
        : (this.contacts.get(clientId) ?? [])
            .filter((c) => c.id % CONTACT_SHARDS === shard)
            .map((c) => ({ contact_id: c.id, contact: copy(c) }));
    const ordered = all
      .sort((a, b) => a.contact_id - b.contact_id)
      .filter((c) => after === undefined || c.contact_id > after);
    const candidates = ordered.slice(0, limit);
    const last = candidates.at(-1)?.contact_id;
    // As DynamoDB: a page that filled its limit says more may follow, even when nothing does.
    return { candidates, ...(last !== undefined ? { last } : {}), end: candidates.length < limit };
  }

  /** A resend's page, as the table's: the parent's listing shard by contact then execution id, cut at its limit. */
  private nonOpenersPage(
    clientId: number,
    parentId: number,
    shard: number,
    after: number | undefined,
    limit: number,
  ): AudiencePage {
    const listed = [...this.data.executions.values()]
      .filter(
        (e) =>
          e.client_id === clientId &&
          e.broadcast_id === parentId &&
          e.contact_id % SEGMENT_SHARDS === shard &&
          (after === undefined || e.contact_id > after),
      )
      .sort((a, b) => a.contact_id - b.contact_id || a.id - b.id);
    const rows = listed.slice(0, limit).map((e) => copy(e) as ListedRecipient);
    const page = listingPageOf(rows, listed.length >= limit);
    const opened = new Set(
      sentEmailsOf(page.contacts).filter((id) =>
        this.data.countedEngagement.has(`${sentEmailKey(clientId, id)}\u0000open`),
      ),
    );
    return nonOpenersOf(page, opened);
  }

  async writePage(
    head: EngineBroadcast,
    shard: number,
    prev: number | undefined,
    page: { last?: number; end: boolean; at: string },
    recipients: ExecutionRecord[],
  ): Promise<'written' | 'moved' | 'stopped' | 'collision'> {
    this.writes += 1;
    const progressKey = `${clientKey(head.client_id, head.id)}:${shard}`;
    const progress = this.shardProgress.get(progressKey);
    if (prev === undefined ? progress?.after !== undefined : progress?.after !== prev) return 'moved';
    const current = this.heads.get(clientKey(head.client_id, head.id));
    if (!current || !['snapshotting', 'sending', 'paused'].includes(current.status)) return 'stopped';
    if (recipients.some((e) => this.data.executions.has(clientKey(e.client_id, e.id)))) return 'collision';
    this.shardProgress.set(progressKey, {
      ...(page.last !== undefined
        ? { after: page.last }
        : progress?.after !== undefined
          ? { after: progress.after }
          : {}),
      n: (progress?.n ?? 0) + recipients.length,
      done: page.end,
      beat_at: page.at,
    });
    for (const e of recipients) {
      this.data.executions.set(clientKey(e.client_id, e.id), copy(e));
      if (e.status === EXECUTION_STATUS.queued)
        this.due.set(clientKey(e.client_id, e.id), {
          client_id: e.client_id,
          broadcast_id: head.id,
          partition: duePartitionOf(e.id, head.shards ?? 1, e.holdout === true),
          key: dueKeyOf(e),
        });
    }
    return 'written';
  }

  async finishShard(head: EngineBroadcast, shard: number, n: number, at: string) {
    this.writes += 1;
    const current = this.heads.get(clientKey(head.client_id, head.id));
    if (!current?.snapshot || current.snapshot.done.includes(shard)) return undefined;
    current.snapshot = {
      ...current.snapshot,
      done: [...current.snapshot.done, shard],
      total: current.snapshot.total + n,
    };
    Object.assign(current, { updated_at: at });
    return copy(current);
  }

  async beginSending(head: EngineBroadcast, _at: string): Promise<boolean> {
    this.writes += 1;
    const current = this.heads.get(clientKey(head.client_id, head.id));
    if (current?.status !== 'snapshotting') return false;
    current.status = 'sending';
    return true;
  }

  async passContext(clientId: number, broadcastId: number): Promise<PassContext> {
    const head = await this.head(clientId, broadcastId);
    const pacer = this.pacers.get(clientKey(clientId, broadcastId));
    return {
      ...(head ? { head } : {}),
      ...(pacer ? { pacer: copy(pacer) } : {}),
      plan: this.plan,
      ...(this.settings ? { settings: this.settings } : {}),
    };
  }

  private entries(head: EngineBroadcast, partition: number): DueEntry[] {
    const found: DueEntry[] = [];
    for (const [key, entry] of this.due) {
      if (entry.client_id !== head.client_id || entry.broadcast_id !== head.id || entry.partition !== partition)
        continue;
      const execution = this.data.executions.get(key)!;
      found.push({ partition, key: entry.key, execution_id: execution.id, scheduled_for: execution.scheduled_for });
    }
    return found.sort((a, b) => (a.key < b.key ? -1 : 1));
  }

  async dueAfter(head: EngineBroadcast, partition: number, after: string | undefined, limit: number) {
    return this.entries(head, partition)
      .filter((e) => after === undefined || e.key > after)
      .slice(0, limit);
  }

  async dueUpTo(head: EngineBroadcast, partition: number, upTo: string, limit: number) {
    return this.entries(head, partition)
      .filter((e) => e.key <= upTo)
      .slice(0, limit);
  }

  async savePacer(head: EngineBroadcast, expected: number | undefined, next: PacerState): Promise<boolean> {
    this.writes += 1;
    const key = clientKey(head.client_id, head.id);
    const current = this.pacers.get(key);
    if (expected === undefined ? current !== undefined : current?.seq !== expected) return false;
    this.pacers.set(key, copy(next));
    return true;
  }

  async finishSending(head: EngineBroadcast, at: string): Promise<boolean> {
    this.writes += 1;
    const current = this.heads.get(clientKey(head.client_id, head.id));
    if (current?.status !== 'sending' || current.retry_seq !== head.retry_seq) return false;
    Object.assign(current, { status: 'sent', completed_at: at });
    this.live.delete(clientKey(head.client_id, head.id));
    return true;
  }

  async failedPage(
    clientId: number,
    broadcastId: number,
    shard: number,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ failed: ExecutionRecord[]; cursor?: string; end: boolean }> {
    const listed = [...this.data.executions.values()]
      .filter(
        (e) => e.client_id === clientId && e.broadcast_id === broadcastId && e.contact_id % SEGMENT_SHARDS === shard,
      )
      .map((e) => ({ e, key: listingKeyOf(e) }))
      .filter(({ key }) => cursor === undefined || key > cursor)
      .sort((a, b) => (a.key < b.key ? -1 : 1));
    const read = listed.slice(0, limit);
    const end = listed.length <= limit;
    return {
      failed: read.filter(({ e }) => e.status === EXECUTION_STATUS.failed).map(({ e }) => copy(e)),
      ...(!end && read.length > 0 ? { cursor: read.at(-1)!.key } : {}),
      end,
    };
  }

  async retryPage(
    head: EngineBroadcast,
    pairs: readonly { original: ExecutionRecord; next: ExecutionRecord }[],
    at: string,
  ): Promise<'written' | 'changed' | 'head'> {
    this.writes += 1;
    const current = this.heads.get(clientKey(head.client_id, head.id));
    if (!current || current.status !== head.status) return 'head';
    const changed = pairs.some(
      ({ original, next }) =>
        this.data.executions.get(clientKey(original.client_id, original.id))?.status !== EXECUTION_STATUS.failed ||
        this.data.executions.has(clientKey(next.client_id, next.id)),
    );
    if (changed) return 'changed';
    if (current.status === 'sent') {
      current.status = 'sending';
      delete (current as { completed_at?: string }).completed_at;
      this.live.set(clientKey(head.client_id, head.id), at);
    }
    current.retried = (current.retried ?? 0) + pairs.length;
    current.retry_seq = (current.retry_seq ?? 0) + 1;
    for (const { original, next } of pairs) {
      const stored = this.data.executions.get(clientKey(original.client_id, original.id))!;
      stored.status = EXECUTION_STATUS.retried;
      stored.updated_at = at;
      this.data.executions.set(clientKey(next.client_id, next.id), copy(next));
      this.due.set(clientKey(next.client_id, next.id), {
        client_id: next.client_id,
        broadcast_id: head.id,
        partition: next.id % Math.max(1, head.shards ?? 1),
        key: dueKeyOf(next),
      });
    }
    return 'written';
  }

  async cancelWaiting(clientId: number, executionIds: readonly number[], reason: string, at: string): Promise<number> {
    let ended = 0;
    for (const id of executionIds) {
      this.writes += 1;
      const key = clientKey(clientId, id);
      const execution = this.data.executions.get(key);
      if (execution?.status !== EXECUTION_STATUS.queued || !this.due.has(key)) continue;
      this.data.changeExecution(execution, (e) =>
        Object.assign(e, { status: EXECUTION_STATUS.cancelled, reason, processed_at: at, updated_at: at }),
      );
      this.due.delete(key);
      ended += 1;
    }
    return ended;
  }

  async markCancelJob(head: EngineBroadcast, at: string | undefined): Promise<void> {
    const key = clientKey(head.client_id, head.id);
    if (this.heads.get(key)?.status !== 'cancelled') return;
    if (at === undefined) this.live.delete(key);
    else this.live.set(key, at);
  }

  async liveBefore(before: string, limit: number) {
    return [...this.live.entries()]
      .filter(([, at]) => at < before)
      .map(([key]) => this.heads.get(key)!)
      .filter((h) => h && LIVE.has(h.status))
      .slice(0, limit)
      .map((h) => ({ client_id: h.client_id, broadcast_id: h.id }));
  }

  async loadLive(refs: readonly { client_id: number; broadcast_id: number }[]): Promise<LiveBroadcast[]> {
    return refs.flatMap((r) => {
      const key = clientKey(r.client_id, r.broadcast_id);
      const head = this.heads.get(key);
      if (!head) return [];
      const pacer = this.pacers.get(key);
      const shards: Record<string, SnapshotShard> = {};
      for (let s = 0; s < (head.snapshot?.sources ?? 0); s++) {
        const progress = this.shardProgress.get(`${key}:${s}`);
        if (progress) shards[s] = copy(progress);
      }
      return [{ head: copy(head), ...(pacer ? { pacer: copy(pacer) } : {}), shards }];
    });
  }
}
