import type { ContactRecord } from '../contacts/contact-store.js';
import type { ContactCounters, EngagementFacts, SegmentDefinition, SegmentIndexBody } from './definition/types.js';

export type SegmentStatus = 'building' | 'ready';

/** A segment's head (keys.ts: segment). `version` moves with each new definition; a backfill fills that version. */
export interface SegmentRecord {
  id: number;
  client_id: number;
  name: string;
  description?: string;
  definition: SegmentDefinition;
  version: number;
  status: SegmentStatus;
  backfill: { version: number; started_at: string; finished_at?: string };
  created_at: string;
  updated_at: string;
}

/** A segment as the list shows it, kept on the count item (one read lists them all). */
export interface SegmentSummary {
  id: number;
  name: string;
  description?: string;
  status: SegmentStatus;
  version: number;
  updated_at: string;
}

/** The count item: segments held (the plan's limit), the next id, every segment's summary. */
export interface SegmentCount {
  n: number;
  next_id: number;
  segments: SegmentSummary[];
}

/** A segment's member count as the day-counters projection keeps it (absent: no member ever counted). */
export interface SegmentGauge {
  n: number;
  counted_at?: string;
}

/** One contact-listing shard's progress through a segment's backfill at `version`. */
export interface BackfillProgress {
  shard: number;
  version: number;
  /** The last contact id of the last page done (0: none yet). */
  after: number;
  scanned: number;
  matched: number;
  beat_at: string;
  done: boolean;
}

/** The index item as stored: the body compiled from every segment at its current version, and its own `version`. */
export interface StoredSegmentIndex extends SegmentIndexBody {
  /** 0: no index item yet. */
  version: number;
}

/** What a segment write reads first, strongly, in one request: the count item, the index, the segment. */
export interface SegmentWriteRead {
  /** undefined: the client never had a segment (no count item). */
  count?: SegmentCount;
  index: StoredSegmentIndex;
  segment?: SegmentRecord;
  /**
   * The broadcasts ever scheduled to the segment (read with its head, no scan) and `n`, the schedules counted: a
   * delete conditioned on `n` is refused by a schedule that landed after the read.
   */
  broadcastUses?: SegmentBroadcastUses;
}

export interface SegmentBroadcastUses {
  broadcastIds: number[];
  n: number;
}

/** The index written with a segment: the body after the change, conditioned on the index `version` read. */
export interface IndexWrite {
  readVersion: number;
  body: SegmentIndexBody;
}

/** `stale`: a condition failed (another write came first, or the segment is gone); nothing was written. */
export type SegmentWriteOutcome = 'done' | 'stale';

export interface SegmentCreate {
  segment: SegmentRecord;
  /** The count item as read (undefined: none yet); its `next_id` is the segment's id. */
  countRead: SegmentCount | undefined;
  max: number;
  index: IndexWrite;
  /** Listing shards whose backfill progress starts at 0. */
  shards: number;
}

export interface SegmentUpdate {
  segment: SegmentRecord;
  /** The head's `version` as read: the write is conditioned on it. */
  readVersion: number;
  /** A new definition: the index and a fresh backfill (progress at 0 on each shard). */
  rebuild?: { index: IndexWrite; shards: number };
}

/** A page of one listing shard of the client's contacts, by id. */
export interface ContactIdPage {
  ids: number[];
  /** True when the shard holds nothing after the page. */
  last: boolean;
}

/**
 * Contacts read for a preview: each with its counters and its engagement with the sources asked for, and whether every
 * contact of the client was read.
 */
export interface PreviewSample {
  contacts: { contact: ContactRecord; counters?: ContactCounters; engagement?: Record<string, EngagementFacts> }[];
  complete: boolean;
}

export interface SegmentMemberEntry {
  contact_id: number;
  at: string;
}

/** A building segment whose backfill has not moved for a while (the SEGJOB entry). */
export interface StaleBackfill {
  client_id: number;
  segment_id: number;
}

/**
 * A client's segments (keys.ts: segment, segment count, segment index, backfill progress, member entries, the
 * segment gauge). The count item holds `n` (so the plan's limit holds under concurrent creates), `next_id`, and each
 * segment's summary; the index holds every segment compiled at its current version and is written whole in each
 * write's transaction, conditioned on its `version`.
 */
export interface SegmentStore {
  /** The count item (undefined: none yet) and each listed segment's gauge: one GetItem + one BatchGetItem. */
  list(clientId: number): Promise<{ count?: SegmentCount; gauges: Map<number, SegmentGauge> }>;
  /** The ids of the client's segments, from the count item's summaries: one strongly consistent GetItem. */
  segmentIds(clientId: number): Promise<number[]>;
  /** The head, its gauge and its backfill progress: one BatchGetItem. */
  get(
    clientId: number,
    segmentId: number,
  ): Promise<{ segment?: SegmentRecord; gauge?: SegmentGauge; progress: BackfillProgress[] }>;
  /** What a write decides on: the count item, the index and (given an id) the head, strongly, in one read. */
  readForWrite(clientId: number, segmentId?: number): Promise<SegmentWriteRead>;
  /** The head, its summary, the index and the backfill progress; `limit` when the count reached `max`. */
  create(write: SegmentCreate): Promise<SegmentWriteOutcome | 'limit'>;
  update(write: SegmentUpdate): Promise<SegmentWriteOutcome>;
  /**
   * The head, its summary and its place in the count, with the index without it; with `journeyIndexVersion`, only if
   * the client's journey index is still at that version (0: none exists), the one read to find journeys starting on it.
   */
  delete(
    segment: SegmentRecord,
    readVersion: number,
    index: IndexWrite,
    usesRead?: number,
    journeyIndexVersion?: number,
  ): Promise<SegmentWriteOutcome>;
  /**
   * Records that a broadcast is scheduled to the segment, if the segment exists (false when it does not): one
   * transaction (a check of the head, the uses item's set and count).
   */
  markBroadcastUse(clientId: number, segmentId: number, broadcastId: number): Promise<boolean>;

  /** Up to `limit` contact ids of one listing shard after `after`, by id (eventually consistent). */
  contactPage(clientId: number, shard: number, after: number, limit: number): Promise<ContactIdPage>;
  /** Every shard's backfill progress of the segment (strong). */
  progress(clientId: number, segmentId: number): Promise<BackfillProgress[]>;
  /**
   * Moves one shard's progress from `prevAfter` to `next` if it is still at `version` and `prevAfter` (a page done
   * twice records once); false when it was not.
   */
  recordPage(clientId: number, segmentId: number, prevAfter: number, next: BackfillProgress): Promise<boolean>;
  /** The head (and its summary) `ready` at `version` if it is still building that version; false otherwise. */
  finishBackfill(clientId: number, segmentId: number, version: number, at: string): Promise<boolean>;
  /** Building segments whose backfill started (or last restarted) before `before`, oldest first. */
  staleBackfills(before: string, limit: number): Promise<StaleBackfill[]>;
  /** Moves the segment's stale-backfill entry to `at` (a restart was sent). */
  touchBackfill(clientId: number, segmentId: number, version: number, at: string): Promise<void>;

  /** Up to `limit` contact ids of one member shard of the segment after `after`, by id (a deleted segment's purge). */
  memberPage(clientId: number, segmentId: number, shard: number, after: number, limit: number): Promise<ContactIdPage>;
  /** Up to `limit` members by contact id after `after` (the 16 member shards merged), and where the next page starts. */
  members(
    clientId: number,
    segmentId: number,
    after: number,
    limit: number,
  ): Promise<{ members: SegmentMemberEntry[]; nextAfter?: number }>;
  /**
   * Up to `limit` of the client's contacts spread over the listing shards, with counters when `withCounters` and the
   * engagement items of `sources` (`B<bid>`, `J<jid>`).
   */
  previewSample(
    clientId: number,
    limit: number,
    withCounters: boolean,
    sources?: readonly string[],
  ): Promise<PreviewSample>;
  /** Which of these sources (`B<bid>`, `J<jid>`) the client has: one BatchGetItem of their heads (none: no request). */
  existingSources(clientId: number, sources: readonly string[]): Promise<Set<string>>;
}
