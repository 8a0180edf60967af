import type { BroadcastAbMetric, BroadcastStatus } from '../../public/broadcast-rules.js';
import type { ContactRecord } from '../contacts/contact-store.js';
import type { ExecutionRecord } from '../executions/execution-record.js';
import type { SettingsRecord } from '../settings/settings-store.js';
import type { StatCounts } from '../stats/stats-counters.js';
import type { TopicSet } from '../topics/topic-store.js';
import type { BroadcastSchedule } from './engine/due-of.js';

/** Who a broadcast goes to. */
export type BroadcastAudience = { segment_id: number } | { topic_id: number } | { all_subscribed: true };

/**
 * Where a snapshot reads its candidates: the audience, or for a resend the parent broadcast's recipients (its listing's
 * 16 shards), of whom only those whose e-mail was sent and never opened by a person are taken.
 */
export type AudienceSource = BroadcastAudience | { resend_of: number };

/** The source a broadcast's snapshot reads. */
export const audienceSourceOf = (head: EngineBroadcast): AudienceSource =>
  head.kind === 'resend' && head.parent_id !== undefined ? { resend_of: head.parent_id } : head.definition.audience;

/** An A/B test as defined. */
export interface BroadcastAb {
  test_percent: number;
  metric: BroadcastAbMetric;
  decide_after_hours: number;
}

/** An A/B test's winner as decided: the variant, on what, each variant's rate and e-mails delivered then, and when. */
export interface BroadcastWinner {
  variant: number;
  metric: BroadcastAbMetric;
  /** Each variant's metric per e-mail delivered when it was decided (4 decimals). */
  rates: number[];
  delivered: number[];
  decided_at: string;
}

/** A broadcast's head as the engine reads it (the API keeps the rest of the record). */
export interface EngineBroadcast {
  id: number;
  client_id: number;
  status: BroadcastStatus;
  draft_version: number;
  /** A resend to a parent's non-openers reads its audience from that parent's recipients. */
  kind?: 'broadcast' | 'resend';
  parent_id?: number;
  definition: {
    audience: BroadcastAudience;
    category: 'marketing' | 'transactional';
    topic_id: number | null;
    variants: { template_id: number; subject?: string }[];
    ab?: BroadcastAb;
    schedule: BroadcastSchedule;
    priority_score?: number;
  };
  /** An A/B test's winner, written once by the decide step. */
  winner?: BroadcastWinner;
  started_at?: string;
  /** Raised by each retry-failed page that wrote recipients: the pacer ends a broadcast only if it did not move. */
  retry_seq?: number;
  /** Failed recipients retried so far. */
  retried?: number;
  /** Partitions of the due index (1–16), fixed at the start. */
  shards?: number;
  /** The snapshot's progress: source shards in all, those finished, recipients written (final once all are done). */
  snapshot?: { sources: number; done: number[]; total: number };
}

/** How far one source shard of the audience has been written. */
export interface SnapshotShard {
  /** The last contact id taken (recipients are read in contact-id order). */
  after?: number;
  n: number;
  done: boolean;
  beat_at?: string;
}

/** One candidate of the audience: the contact (from the contact listing) or a segment member with its zone. */
export interface AudienceCandidate {
  contact_id: number;
  /** The send zone the segment member entry carries. */
  zone?: string;
  /** The contact item, when the source is the contact listing (topic and all-subscribed audiences). */
  contact?: ContactRecord;
  /** A resend's candidate: the template the parent sent it (its variant's). */
  template_id?: number;
}

/** A page of one source shard after a contact id: `last` the last contact id read, `end` nothing after it. */
export interface AudiencePage {
  candidates: AudienceCandidate[];
  last?: number;
  end: boolean;
}

/** The pacer's own item: its chain (`seq`), how far each due partition was released, its beat. */
export interface PacerState {
  /** The chain: a pace message names the seq it expects; each pass raises it. */
  seq: number;
  /** Due partition → the last index key released. */
  cursors: Record<string, string>;
  /** The cursors as they were at `checked_at`: entries still waiting at or before them were released long ago. */
  checked?: Record<string, string>;
  checked_at?: string;
  beat_at: string;
  /** When the chain's next pass is due (a sleeping pacer is not a lost one). */
  next_at: string;
  /** The last time a pass released any recipient. */
  released_at?: string;
  /** Names the write that left this state: a retried write refused by its own first attempt knows it landed. */
  token?: string;
}

/** A recipient waiting in the due index. */
export interface DueEntry {
  partition: number;
  /** Its index sort key: `<scheduled_for>#<pad16 id>`. */
  key: string;
  execution_id: number;
  scheduled_for: string;
}

/** A broadcast with a live entry, and what the sweep needs to see whether its chain is lost. */
export interface LiveBroadcast {
  head: EngineBroadcast;
  pacer?: PacerState;
  /** Source shard → its snapshot progress (read for a snapshotting head only). */
  shards: Record<string, SnapshotShard>;
}

/** A pass's reads in one request: head, pacer, and the client's plan and settings (from the cached configuration). */
export interface PassContext {
  head?: EngineBroadcast;
  pacer?: PacerState;
  plan?: string;
  settings?: SettingsRecord;
}

/** A snapshot page's reads in one request: head, the shard's progress, settings and topics (cached configuration). */
export interface PageContext {
  head?: EngineBroadcast;
  shard?: SnapshotShard;
  settings?: SettingsRecord;
  topics?: TopicSet;
}

/**
 * The broadcast engine's items: the head's engine moves, the snapshot's pages, the due index, the pacer and the
 * live entries the sweep reads. Every write is conditional on what the step read, so a redelivered or duplicate step
 * writes nothing twice.
 */
export interface RecipientStore {
  head(clientId: number, broadcastId: number): Promise<EngineBroadcast | undefined>;
  /** How many source shards the audience is read in (segment member partitions, or the contact listing's). */
  sourceShards(audience: AudienceSource): number;
  /** The audience's size as counted now (a segment's gauge), or undefined when nothing counts it. */
  audienceEstimate(clientId: number, audience: AudienceSource): Promise<number | undefined>;
  /** scheduled → snapshotting for chain `gen` (the draft version scheduled): started_at, shards, snapshot progress. */
  startSnapshot(
    head: EngineBroadcast,
    gen: number,
    startedAt: string,
    shards: number,
    sources: number,
  ): Promise<boolean>;
  pageContext(clientId: number, broadcastId: number, shard: number): Promise<PageContext>;
  /**
   * Up to `limit` candidates of one source shard after contact `after`, in contact-id order. A resend's source reads
   * the parent's recipient listing and keeps each contact whose execution completed and whose sent e-mail carries no
   * counted human open (one BatchGetItem of those markers a page); a page never ends inside one contact's entries.
   */
  audiencePage(
    clientId: number,
    audience: AudienceSource,
    shard: number,
    after: number | undefined,
    limit: number,
  ): Promise<AudiencePage>;
  /**
   * One page in one transaction: the shard's progress moved from `prev` (absent: the shard's first page) to `last`
   * (and done when `end`), `n` raised by the recipients, and each recipient's execution put (absent before), queued
   * ones in partition `id mod shards` of the due index. `moved`: the progress was not at `prev` (a duplicate page):
   * nothing written. `stopped`: the head no longer takes recipients (cancelled, sent): nothing written.
   * `collision`: a recipient's id was taken (time-ordered ids drawn in the same millisecond): nothing written, draw
   * again.
   */
  writePage(
    head: EngineBroadcast,
    shard: number,
    prev: number | undefined,
    page: { last?: number; end: boolean; at: string },
    recipients: ExecutionRecord[],
  ): Promise<'written' | 'moved' | 'stopped' | 'collision'>;
  /**
   * The shard's total added to the head's snapshot, once (the shard not already listed done): the head as it is
   * after, or undefined when the shard was already counted (then read the head to see whether the snapshot is done).
   */
  finishShard(head: EngineBroadcast, shard: number, n: number, at: string): Promise<EngineBroadcast | undefined>;
  /** snapshotting → sending; false when the head was not snapshotting (paused, cancelled, already sending). */
  beginSending(head: EngineBroadcast, at: string): Promise<boolean>;
  passContext(clientId: number, broadcastId: number): Promise<PassContext>;
  /** Waiting recipients of one partition with index keys after `after` (all from the start without), earliest first. */
  dueAfter(head: EngineBroadcast, partition: number, after: string | undefined, limit: number): Promise<DueEntry[]>;
  /** Waiting recipients of one partition with index keys at or before `upTo`, earliest first. */
  dueUpTo(head: EngineBroadcast, partition: number, upTo: string, limit: number): Promise<DueEntry[]>;
  /**
   * The pacer's item written whole if its seq is still `expected` (undefined: no pacer yet); false otherwise. A write
   * whose answer was lost and whose retry met its own first attempt (the same `token`) is true.
   */
  savePacer(head: EngineBroadcast, expected: number | undefined, next: PacerState): Promise<boolean>;
  /**
   * An A/B test's decide step reads in one request: the head and its variants' result rows (index = variant; a variant
   * nothing was counted for yet is an empty row).
   */
  decideContext(
    clientId: number,
    broadcastId: number,
  ): Promise<{ head?: EngineBroadcast; variants: Partial<StatCounts>[] }>;
  /**
   * The winner written on the head once: false when one was already written, or the broadcast no longer sends (sent,
   * cancelled).
   */
  writeWinner(head: EngineBroadcast, winner: BroadcastWinner): Promise<boolean>;
  /**
   * Failed (4) recipients of one shard of the broadcast's recipient listing after the listing key `cursor`, reading at
   * most `limit` entries: those failed, the last key read, and whether the shard ends there.
   */
  failedPage(
    clientId: number,
    broadcastId: number,
    shard: number,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ failed: ExecutionRecord[]; cursor?: string; end: boolean }>;
  /**
   * One transaction: each original 4 → 7 retried (conditioned on 4) with its new execution put (listed under the
   * broadcast, waiting in its due index), and the head's `retried` and `retry_seq` raised — a sent head back to
   * sending with its live entry (conditioned on the status read). `changed`: an original was no longer failed or an
   * id was taken: nothing written. `head`: the head's status moved since it was read: nothing written.
   */
  retryPage(
    head: EngineBroadcast,
    pairs: readonly { original: ExecutionRecord; next: ExecutionRecord }[],
    at: string,
  ): Promise<'written' | 'changed' | 'head'>;
  /**
   * sending → sent with completed_at, leaving the live index, on condition no retry page wrote since the head was
   * read (`retry_seq`); false when it was not sending or a retry moved it.
   */
  finishSending(head: EngineBroadcast, at: string): Promise<boolean>;
  /**
   * Waiting (1) recipients ended 1 → 5 with `reason`, each by its own conditional write (one claimed meanwhile is
   * left to its worker): how many were ended.
   */
  cancelWaiting(clientId: number, executionIds: readonly number[], reason: string, at: string): Promise<number>;
  /** A cancelled broadcast's live entry moved to `at` (the cancel job beats) or removed when `at` is undefined. */
  markCancelJob(head: EngineBroadcast, at: string | undefined): Promise<void>;
  /** Live entries whose next check is before `before`, across the live shards: `limit` at most. */
  liveBefore(before: string, limit: number): Promise<{ client_id: number; broadcast_id: number }[]>;
  /** Heads, pacers and (for snapshotting ones) snapshot progress of the given broadcasts. */
  loadLive(refs: readonly { client_id: number; broadcast_id: number }[]): Promise<LiveBroadcast[]>;
}
