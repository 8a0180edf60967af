import type { BroadcastStatus } from '../../public/broadcast-rules.js';
import type { StatCounts } from '../stats/stats-counters.js';
import type { BroadcastDefinition } from './schemas.js';

/** A broadcast's head as stored: what the API writes, and what the engine adds as it runs (kept optional). */
export interface BroadcastRecord {
  id: number;
  client_id: number;
  name: string;
  status: BroadcastStatus;
  draft_version: number;
  definition: BroadcastDefinition;
  scheduled_at?: string;
  started_at?: string;
  paused_at?: string;
  cancelled_at?: string;
  completed_at?: string;
  snapshot?: { sources: number; done: number[]; total: number };
  created_at: string;
  updated_at: string;
}

/** The totals row the day-counters projection keeps for a broadcast. */
export interface BroadcastTotalsRow {
  counts: Partial<StatCounts>;
}

/** A move of the head from one of `from` to `to`, with fields to set, and the live entry set or kept. */
export interface BroadcastMove {
  clientId: number;
  broadcastId: number;
  from: readonly BroadcastStatus[];
  to: BroadcastStatus;
  at: string;
  set?: Partial<Pick<BroadcastRecord, 'scheduled_at' | 'paused_at' | 'cancelled_at'>>;
  /** `draft_version` the move requires (scheduling the draft that was read). */
  draftVersion?: number;
  /** The live entry's next check (the lost-chain sweep's view) set by the move. */
  liveAt?: string;
  /** Fields the move removes (a resumed broadcast's paused_at). */
  remove?: readonly 'paused_at'[];
}

export interface BroadcastDraftReplace {
  clientId: number;
  broadcastId: number;
  draftVersion: number;
  name: string;
  definition: BroadcastDefinition;
  at: string;
}

export interface BroadcastStore {
  /** A new draft with the next id: one transaction (the count item's next id, the head). */
  create(clientId: number, draft: Omit<BroadcastRecord, 'id'>): Promise<BroadcastRecord>;
  /** The head and its totals row: one BatchGetItem. */
  get(clientId: number, broadcastId: number): Promise<{ broadcast?: BroadcastRecord; totals?: BroadcastTotalsRow }>;
  /** Newest first, at most `limit`, with their totals: one Query and one BatchGetItem. */
  list(clientId: number, limit: number): Promise<{ broadcast: BroadcastRecord; totals?: BroadcastTotalsRow }[]>;
  /** The move as one conditional update: the head after it, or undefined when its status (or draft) was not as required. */
  move(move: BroadcastMove): Promise<BroadcastRecord | undefined>;
  /**
   * A draft's name and definition replaced, `draft_version` + 1: one conditional update (status draft, the version
   * read). The head after it, or undefined when it is no longer that draft.
   */
  replaceDraft(replace: BroadcastDraftReplace): Promise<BroadcastRecord | undefined>;
  /** The status of each of these broadcasts that exists: BatchGetItem of the heads (100 a request, one wave). */
  statuses(clientId: number, broadcastIds: readonly number[]): Promise<Map<number, BroadcastStatus>>;
  /** A draft deleted (one conditional delete); else what stood in the way. */
  deleteDraft(clientId: number, broadcastId: number): Promise<'deleted' | 'missing' | { status: BroadcastStatus }>;
}
