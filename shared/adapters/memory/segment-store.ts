import type {
  BackfillProgress,
  ContactIdPage,
  IndexWrite,
  PreviewSample,
  SegmentCount,
  SegmentCreate,
  SegmentGauge,
  SegmentMemberEntry,
  SegmentRecord,
  SegmentStore,
  SegmentUpdate,
  SegmentWriteOutcome,
  SegmentWriteRead,
  StaleBackfill,
  StoredSegmentIndex,
} from '../../domain/segments/segment-store.js';
import { keys } from '../dynamo/keys.js';
import { segmentSummaryOf } from '../dynamo/segment-store.js';
import { clientKey, copy, MemoryEngineData, type MemoryAggregates } from './engine-data.js';

const EMPTY_INDEX: StoredSegmentIndex = { version: 0, segments: [], specs: [], watched: [] };

/**
 * SegmentStore in memory, with the DynamoDB adapter's contract: each write checks its conditions (the count's
 * next_id and limit, the head's version, the index's version) and lands whole or not at all. The index and the
 * member entries are the engine data the membership store reads and writes; a segment's count is its member
 * entries (what the day-counters projection converges to).
 */
export class MemorySegmentStore implements SegmentStore {
  private readonly heads = new Map<string, SegmentRecord & { job_at?: string }>();
  private readonly counts = new Map<number, SegmentCount>();
  private readonly progressItems = new Map<string, BackfillProgress[]>();
  private readonly uses = new Map<string, { broadcastIds: number[]; n: number }>();

  constructor(
    private readonly aggregates: Pick<MemoryAggregates, 'contacts'> & {
      /**
       * The journeys' store, when wired: a segment's engagement source may name a journey, and a delete is conditioned
       * on the journey index's version.
       */
      journeys?: Partial<{
        get(clientId: number, journeyId: number): Promise<unknown>;
        index(clientId: number): Promise<{ version: number }>;
      }>;
    },
    readonly data: MemoryEngineData = new MemoryEngineData(),
  ) {}

  async list(clientId: number): Promise<{ count?: SegmentCount; gauges: Map<number, SegmentGauge> }> {
    const count = this.counts.get(clientId);
    const gauges = new Map<number, SegmentGauge>();
    for (const s of count?.segments ?? []) {
      const gauge = this.gauge(clientId, s.id);
      if (gauge) gauges.set(s.id, gauge);
    }
    return { ...(count ? { count: copy(count) } : {}), gauges };
  }

  async segmentIds(clientId: number): Promise<number[]> {
    return (this.counts.get(clientId)?.segments ?? []).map((s) => s.id);
  }

  async get(clientId: number, segmentId: number) {
    const head = this.heads.get(clientKey(clientId, segmentId));
    const gauge = this.gauge(clientId, segmentId);
    return {
      ...(head ? { segment: this.record(head) } : {}),
      ...(gauge ? { gauge } : {}),
      progress: copy(this.progressItems.get(clientKey(clientId, segmentId)) ?? []),
    };
  }

  async readForWrite(clientId: number, segmentId?: number): Promise<SegmentWriteRead> {
    const count = this.counts.get(clientId);
    const index = this.data.segmentIndexes.get(clientId);
    const head = segmentId === undefined ? undefined : this.heads.get(clientKey(clientId, segmentId));
    return {
      ...(count ? { count: copy(count) } : {}),
      index: index ? copy(index) : EMPTY_INDEX,
      ...(head ? { segment: this.record(head) } : {}),
      ...(head && this.uses.has(clientKey(clientId, segmentId!))
        ? { broadcastUses: copy(this.uses.get(clientKey(clientId, segmentId!))!) }
        : {}),
    };
  }

  async markBroadcastUse(clientId: number, segmentId: number, broadcastId: number): Promise<boolean> {
    const key = clientKey(clientId, segmentId);
    if (!this.heads.has(key)) return false;
    const uses = this.uses.get(key) ?? { broadcastIds: [], n: 0 };
    const ids = uses.broadcastIds.includes(broadcastId) ? uses.broadcastIds : [...uses.broadcastIds, broadcastId];
    this.uses.set(key, { broadcastIds: ids.sort((a, b) => a - b), n: uses.n + 1 });
    return true;
  }

  async create(write: SegmentCreate): Promise<SegmentWriteOutcome | 'limit'> {
    const { segment } = write;
    const clientId = segment.client_id;
    const count = this.counts.get(clientId);
    if ((write.countRead?.n ?? 0) >= write.max) return 'limit';
    if (write.countRead ? count?.next_id !== segment.id || count.n >= write.max : count !== undefined) return 'stale';
    if (!this.indexHolds(clientId, write.index) || this.heads.has(clientKey(clientId, segment.id))) return 'stale';
    this.counts.set(clientId, {
      n: (count?.n ?? 0) + 1,
      next_id: segment.id + 1,
      segments: [...(count?.segments ?? []), segmentSummaryOf(segment)],
    });
    this.heads.set(clientKey(clientId, segment.id), { ...copy(segment), job_at: segment.backfill.started_at });
    this.writeIndex(clientId, write.index);
    this.startProgress(segment, write.shards);
    return 'done';
  }

  async update(write: SegmentUpdate): Promise<SegmentWriteOutcome> {
    const { segment } = write;
    const clientId = segment.client_id;
    const head = this.heads.get(clientKey(clientId, segment.id));
    if (!head || head.version !== write.readVersion) return 'stale';
    if (write.rebuild && !this.indexHolds(clientId, write.rebuild.index)) return 'stale';
    this.heads.set(clientKey(clientId, segment.id), {
      ...copy(segment),
      ...(segment.status === 'building' ? { job_at: segment.backfill.started_at } : {}),
    });
    this.setSummary(clientId, segment);
    if (write.rebuild) {
      this.writeIndex(clientId, write.rebuild.index);
      this.startProgress(segment, write.rebuild.shards);
    }
    return 'done';
  }

  /** Whether the client has the segment (a journey's publish checks its trigger's). */
  has(clientId: number, segmentId: number): boolean {
    return this.heads.has(clientKey(clientId, segmentId));
  }

  async delete(
    segment: SegmentRecord,
    readVersion: number,
    index: IndexWrite,
    usesRead = 0,
    journeyIndexVersion?: number,
  ): Promise<SegmentWriteOutcome> {
    const clientId = segment.client_id;
    const head = this.heads.get(clientKey(clientId, segment.id));
    if (!head || head.version !== readVersion || !this.indexHolds(clientId, index)) return 'stale';
    const journeyIndex = this.aggregates.journeys?.index;
    if (journeyIndexVersion !== undefined && journeyIndex) {
      if ((await journeyIndex.call(this.aggregates.journeys, clientId)).version !== journeyIndexVersion) return 'stale';
    }
    if ((this.uses.get(clientKey(clientId, segment.id))?.n ?? 0) !== usesRead) return 'stale';
    this.uses.delete(clientKey(clientId, segment.id));
    this.heads.delete(clientKey(clientId, segment.id));
    const count = this.counts.get(clientId)!;
    this.counts.set(clientId, {
      ...count,
      n: count.n - 1,
      segments: count.segments.filter((s) => s.id !== segment.id),
    });
    this.writeIndex(clientId, index);
    this.progressItems.delete(clientKey(clientId, segment.id));
    return 'done';
  }

  async contactPage(clientId: number, shard: number, after: number, limit: number): Promise<ContactIdPage> {
    const ids = this.contactIds(clientId).filter((id) => id % keys.contactShards === shard && id > after);
    return { ids: ids.slice(0, limit), last: ids.length <= limit };
  }

  async progress(clientId: number, segmentId: number): Promise<BackfillProgress[]> {
    return copy(this.progressItems.get(clientKey(clientId, segmentId)) ?? []);
  }

  async recordPage(clientId: number, segmentId: number, prevAfter: number, next: BackfillProgress): Promise<boolean> {
    const items = this.progressItems.get(clientKey(clientId, segmentId)) ?? [];
    const at = items.findIndex((p) => p.shard === next.shard);
    const current = items[at];
    if (!current || current.version !== next.version || current.after !== prevAfter || current.done) return false;
    items[at] = copy(next);
    return true;
  }

  async finishBackfill(clientId: number, segmentId: number, version: number, at: string): Promise<boolean> {
    const head = this.heads.get(clientKey(clientId, segmentId));
    if (!head || head.version !== version || head.status !== 'building') return false;
    const { job_at: _job, ...rest } = head;
    const ready: SegmentRecord = { ...rest, status: 'ready', backfill: { ...rest.backfill, finished_at: at } };
    this.heads.set(clientKey(clientId, segmentId), ready);
    const count = this.counts.get(clientId)!;
    this.counts.set(clientId, {
      ...count,
      segments: count.segments.map((s) => (s.id === segmentId ? { ...s, status: 'ready' } : s)),
    });
    return true;
  }

  async staleBackfills(before: string, limit: number): Promise<StaleBackfill[]> {
    return [...this.heads.values()]
      .filter((h) => h.status === 'building' && h.job_at !== undefined && h.job_at < before)
      .sort((a, b) => (a.job_at! < b.job_at! ? -1 : 1))
      .slice(0, limit)
      .map((h) => ({ client_id: h.client_id, segment_id: h.id }));
  }

  async touchBackfill(clientId: number, segmentId: number, version: number, at: string): Promise<void> {
    const head = this.heads.get(clientKey(clientId, segmentId));
    if (head && head.version === version && head.status === 'building') head.job_at = at;
  }

  async members(
    clientId: number,
    segmentId: number,
    after: number,
    limit: number,
  ): Promise<{ members: SegmentMemberEntry[]; nextAfter?: number }> {
    const entries = this.data.segmentMembers.get(`${clientId}\u0000${segmentId}`) ?? new Map();
    const all = [...entries.entries()]
      .filter(([id]) => id > after)
      .sort(([a], [b]) => a - b)
      .map(([id, entry]) => ({ contact_id: id, at: entry.at }));
    const members = all.slice(0, limit);
    return all.length > limit ? { members, nextAfter: members.at(-1)!.contact_id } : { members };
  }

  async memberPage(
    clientId: number,
    segmentId: number,
    shard: number,
    after: number,
    limit: number,
  ): Promise<ContactIdPage> {
    const entries = this.data.segmentMembers.get(`${clientId}\u0000${segmentId}`) ?? new Map();
    const ids = [...entries.keys()]
      .filter((id) => id % keys.segmentMemberShards === shard && id > after)
      .sort((a, b) => a - b);
    return { ids: ids.slice(0, limit), last: ids.length <= limit };
  }

  async existingSources(clientId: number, sources: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const source of sources) {
      const id = Number(source.slice(1));
      if (source.startsWith('B') && this.data.broadcastIds.get(clientId)?.has(id)) found.add(source);
      if (source.startsWith('J') && (await this.aggregates.journeys?.get?.(clientId, id))) found.add(source);
    }
    return found;
  }

  async previewSample(
    clientId: number,
    limit: number,
    withCounters: boolean,
    sources: readonly string[] = [],
  ): Promise<PreviewSample> {
    const perShard = Math.ceil(limit / keys.contactShards);
    const ids = this.contactIds(clientId);
    let complete = true;
    const chosen: number[] = [];
    for (let shard = 0; shard < keys.contactShards; shard += 1) {
      const inShard = ids.filter((id) => id % keys.contactShards === shard);
      if (inShard.length > perShard) complete = false;
      chosen.push(...inShard.slice(0, perShard));
    }
    return {
      contacts: chosen.map((id) => {
        const key = clientKey(clientId, id);
        const counters = withCounters ? this.data.contactCounters.get(key) : undefined;
        const engagement = sources.length > 0 ? this.data.contactEngagement.read(clientId, id, sources) : undefined;
        return {
          contact: copy(this.aggregates.contacts.contacts.get(key)!),
          ...(counters ? { counters: copy(counters) } : {}),
          ...(engagement ? { engagement } : {}),
        };
      }),
      complete,
    };
  }

  private contactIds(clientId: number): number[] {
    return [...this.aggregates.contacts.contacts.values()]
      .filter((c) => c.client_id === clientId)
      .map((c) => c.id)
      .sort((a, b) => a - b);
  }

  private gauge(clientId: number, segmentId: number): SegmentGauge | undefined {
    const entries = this.data.segmentMembers.get(`${clientId}\u0000${segmentId}`);
    return entries ? { n: entries.size } : undefined;
  }

  private record(head: SegmentRecord & { job_at?: string }): SegmentRecord {
    const { job_at: _job, ...rest } = head;
    return copy(rest);
  }

  private indexHolds(clientId: number, index: IndexWrite): boolean {
    return (this.data.segmentIndexes.get(clientId)?.version ?? 0) === index.readVersion;
  }

  private writeIndex(clientId: number, index: IndexWrite): void {
    this.data.segmentIndexes.set(clientId, { ...copy(index.body), version: index.readVersion + 1 });
  }

  private setSummary(clientId: number, segment: SegmentRecord): void {
    const count = this.counts.get(clientId)!;
    this.counts.set(clientId, {
      ...count,
      segments: count.segments.map((s) => (s.id === segment.id ? segmentSummaryOf(segment) : s)),
    });
  }

  private startProgress(segment: SegmentRecord, shards: number): void {
    this.progressItems.set(
      clientKey(segment.client_id, segment.id),
      Array.from({ length: shards }, (_, shard) => ({
        shard,
        version: segment.backfill.version,
        after: 0,
        scanned: 0,
        matched: 0,
        beat_at: segment.backfill.started_at,
        done: false,
      })),
    );
  }
}
