import type { BroadcastStatus } from '../../public/broadcast-rules.js';
import type { StatCounts } from '../stats/stats-counters.js';
import type { ExecutionRecord } from '../executions/execution-record.js';
import type { SentStatus } from '../sent-emails/sent-email-record.js';
import type { ConversionBroadcast } from './conversions.js';
import type { BroadcastWinner } from './recipient-store.js';
import type { BroadcastDefinition } from './schemas.js';

/** A broadcast's head as stored: what the API writes, and what the engine adds as it runs (kept optional). */
export interface BroadcastRecord {
  id: number;
  client_id: number;
  name: string;
  status: BroadcastStatus;
  draft_version: number;
  definition: BroadcastDefinition;
  /** `resend`: a child sent to its parent's recipients who never opened it (read from the parent's recipients). */
  kind?: 'broadcast' | 'resend';
  /** A resend's parent. */
  parent_id?: number;
  /** The parent's resend, once made (one a broadcast). */
  resend_id?: number;
  /** Failed recipients sent again by retry-failed so far (the engine raises it with each page). */
  retried?: number;
  scheduled_at?: string;
  started_at?: string;
  paused_at?: string;
  cancelled_at?: string;
  completed_at?: string;
  snapshot?: { sources: number; done: number[]; total: number };
  /** An A/B test's winner, written once by its decide step. */
  winner?: BroadcastWinner;
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
  /** The head, its totals row and (an A/B test's) its variants' rows: one BatchGetItem. */
  get(
    clientId: number,
    broadcastId: number,
  ): Promise<{ broadcast?: BroadcastRecord; totals?: BroadcastTotalsRow; variants?: BroadcastTotalsRow[] }>;
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
  /**
   * A resend of `parentId` with the next id, scheduled: one transaction — the count item's next id, the child's head
   * (with its live entry at `liveAt`), the parent's `resend_id` set on condition it is the client's, started
   * (snapshotting, sending, paused or sent) and has none yet. Else what stood in the way.
   */
  createResend(
    clientId: number,
    parentId: number,
    child: Omit<BroadcastRecord, 'id'>,
    liveAt: string,
  ): Promise<BroadcastRecord | 'missing' | 'exists' | { refused: BroadcastStatus }>;
  /** A draft deleted (one conditional delete); else what stood in the way. */
  deleteDraft(clientId: number, broadcastId: number): Promise<'deleted' | 'missing' | { status: BroadcastStatus }>;
  /**
   * A scheduled broadcast that counts conversions listed on the client's conversions item (the configuration event
   * processing reads), ended entries taken off: one GetItem and one UpdateItem.
   */
  listConversion(clientId: number, entry: ConversionBroadcast, now: Date): Promise<void>;
  /** The broadcast's link rows the projection keeps: one Query (one page of up to 1 MB: several thousand links). */
  links(clientId: number, broadcastId: number): Promise<BroadcastLinkRow[]>;
  /**
   * One page of the broadcast's recipients in (contact id, execution id) order after `after` (a listing position):
   * its 16 listing shards read in one wave, each up to `limit` (only executions at `statuses` when given), merged up
   * to the lowest position a shard stopped at. `nextAfter` absent: the list ends here.
   */
  recipientPage(
    clientId: number,
    broadcastId: number,
    page: { after?: string; limit: number; statuses?: readonly number[] },
  ): Promise<{ recipients: ExecutionRecord[]; nextAfter?: string }>;
  /**
   * What the recipients' e-mails say, in one wave: each e-mail's logs (one Query each, status and bot verdict only:
   * its status is the highest-ranked log's, as its own answer says it; people's opens and clicks are the logs not
   * marked as a machine's) and the recipients' addresses (BatchGetItem of the contacts, eventually consistent).
   */
  recipientDetails(clientId: number, recipients: readonly ExecutionRecord[]): Promise<RecipientDetails>;
}

/** A link's row: the URL as kept, and its clicks by people and by machines. */
export interface BroadcastLinkRow {
  url: string;
  human: number;
  machine: number;
}

/** What `recipientDetails` found. */
export interface RecipientDetails {
  /** Sent e-mail id → what it says now (absent: erased or never written). */
  emails: Map<string, { status: SentStatus }>;
  /** Sent e-mail ids a person opened / clicked (their logs bot detection did not mark). */
  humanOpened: Set<string>;
  humanClicked: Set<string>;
  /** Contact id → address (absent: the contact was erased). */
  contacts: Map<number, string>;
}
