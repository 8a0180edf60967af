import type { ContactRecord } from '../contacts/contact-store.js';
import type { EventRecord } from '../events/event-record.js';
import type { JourneyIndex } from '../journeys/journey-records.js';
import type { TopicSet } from '../topics/topic-store.js';
import type { ContactCounters, EngagementFacts, SegmentIndexBody } from './definition/types.js';

/** The client's SEGMENTINDEX item: every segment at its current version, the event specs, the watched attributes. */
export interface SegmentIndex extends SegmentIndexBody {
  version: number;
}

/**
 * A contact's memberships as kept on its own SEGSTATE item: `sv` its version (every write raises it, conditioned on
 * the one read), `members` the segments it is in with the segment version it was evaluated under, `z` the send zone
 * written on its member entries, `next_eval_at` the earliest instant a time-relative condition could flip.
 */
export interface SegmentState {
  sv: number;
  members: Record<number, number>;
  z?: string;
  next_eval_at?: string;
}

/**
 * What evaluating one contact reads: the contact (absent: gone), its counters, its engagement with the sources the
 * segments name (by source key; absent: none) and its state (absent: none yet).
 */
export interface ContactSegmentRead {
  contactId: number;
  contact?: ContactRecord;
  counters?: ContactCounters;
  engagement?: Record<string, EngagementFacts>;
  state?: SegmentState;
}

export interface MembershipRead {
  /** Absent: the client has no segment index (never had a segment). */
  index?: SegmentIndex;
  topics?: TopicSet;
  /** The client's journey index (through the configuration cache, in the same read): which moves start runs. */
  journeyIndex?: JourneyIndex;
  contacts: ContactSegmentRead[];
}

/**
 * One contact's membership change, written whole or not at all: its SEGSTATE (conditioned on the `sv` read; `null`:
 * the contact is gone and the item goes), a member entry Put for each segment `entered` (and for each of `rezoned`,
 * whose entry keeps its place but takes the new zone), a member entry Delete for each segment `left`.
 */
export interface MembershipTransition {
  clientId: number;
  contactId: number;
  /** The state's `sv` as read; undefined: no SEGSTATE was read. */
  svRead: number | undefined;
  state: SegmentState | null;
  entered: number[];
  rezoned: number[];
  left: number[];
  /** When the change was decided (the member entries' `at`). */
  at: string;
  /**
   * The `segment.entered` / `segment.left` events a live journey listens to, written queued in the same transaction
   * (absent: none): the runs they start come from a committed move, once.
   */
  events?: EventRecord[];
}

/** A contact whose next time-relative edge is due (the edges sweep's view of the due index). */
export interface DueContact {
  client_id: number;
  contact_id: number;
  due_at: string;
}

export interface MembershipStore {
  /** The client's segment index (through the container's configuration cache). */
  index(clientId: number): Promise<SegmentIndex | undefined>;
  /**
   * The index, the client's topics and, per contact, the contact, its counters, its engagement items of the sources
   * the index's segments name (and of `sources`: a backfill's segment, not in the index yet) and its state: one
   * BatchGetItem wave, strongly consistent, so any order of messages converges on the contact's last state. The index
   * comes from the configuration cache unless `freshIndex` (then read strongly with the contacts, and the engagement
   * items of sources only it names in a second wave).
   */
  read(
    clientId: number,
    contactIds: readonly number[],
    options?: { freshIndex?: boolean; sources?: readonly string[] },
  ): Promise<MembershipRead>;
  /**
   * Writes the transitions in as few transactions as DynamoDB's 100 items allow. Answers the contacts whose state
   * moved since it was read (their condition failed): none of their items were written; every other transition was.
   */
  commit(transitions: readonly MembershipTransition[]): Promise<{ conflicts: number[] }>;
  /** Contacts of one due shard whose edge is at or before `until`, oldest first, after `cursor`. */
  due(
    shard: number,
    until: string,
    limit: number,
    cursor?: string,
  ): Promise<{ contacts: DueContact[]; cursor?: string }>;
}
