/**
 * A segment as a client writes it: a saved condition tree of two levels (groups of conditions), read against one
 * contact at a time. Plain data (JSON over the API, stored as is on each version), validated by the zod schemas beside
 * this file (schemas.ts, which `satisfies` these types) and by validate-segment.ts for what a schema cannot say
 * (topics that exist, the client's event counters, the size).
 *
 * The leaves on a contact's own fields, custom fields, tags and topics are the journeys' conditions, read the same way
 * (journeys/definition/conditions.ts), so one rule language serves both.
 */
import type { ContactRecord } from '../../contacts/contact-store.js';
import type { TopicSet } from '../../topics/topic-store.js';
import type { Condition, ConditionValue, ContactConditionField, ValueOp } from '../../journeys/definition/types.js';

export type SegmentMatch = 'all' | 'any';

/** The contact's timestamps a `date` condition reads. */
export const SEGMENT_DATE_FIELDS = [
  'created_at',
  'last_activity_at',
  'last_email_opened_at',
  'last_email_clicked_at',
  'last_purchase_at',
] as const;
export type SegmentDateField = (typeof SEGMENT_DATE_FIELDS)[number];

export const SEGMENT_DATE_OPS = ['before', 'after', 'within_days', 'not_within_days', 'exists', 'not_exists'] as const;
export type SegmentDateOp = (typeof SEGMENT_DATE_OPS)[number];

export const SUBSCRIPTION_OPS = ['subscribed', 'unsubscribed', 'suppressed'] as const;
export type SubscriptionOp = (typeof SUBSCRIPTION_OPS)[number];

export const EVENT_COUNT_OPS = ['at_least', 'at_most', 'exactly'] as const;
export type EventCountOp = (typeof EVENT_COUNT_OPS)[number];

export const ENGAGEMENT_OPS = ['human_opened', 'human_clicked', 'never_opened', 'not_opened'] as const;
export type EngagementOp = (typeof ENGAGEMENT_OPS)[number];

/** The one journey or broadcast an engagement condition reads (absent: every e-mail). */
export type EngagementSource = { journey_id: number } | { broadcast_id: number };

/**
 * A contact's engagement with one source, as its `ENG#<source>` item keeps it: `sent_at` when the first e-mail of a
 * broadcast was sent to it (a journey's sends are the contact's `sent_w<journey>` instead), `opened_at` / `clicked_at`
 * its last human open / click of an e-mail of the source (machines never count). Instants, RFC 3339.
 */
export interface EngagementFacts {
  sent_at?: string;
  opened_at?: string;
  clicked_at?: string;
}

/** A condition on a value of the counted event itself (the journeys' event condition). */
export type SegmentEventCondition = Extract<Condition, { on: 'event' }>;

export type SegmentCondition =
  | { on: 'contact'; field: ContactConditionField; op: ValueOp; value?: ConditionValue }
  | { on: 'custom_field'; name: string; op: ValueOp; value?: ConditionValue }
  | { on: 'tag'; op: 'has' | 'has_not'; tag: string }
  | { on: 'topic'; topic_id: number; op: 'subscribed' | 'unsubscribed' }
  /** Whether the contact gets marketing mail at all; `suppressed`: no mail of any kind (bounces, complaints). */
  | { on: 'subscription'; op: SubscriptionOp }
  /**
   * One of the contact's timestamps: before / after an instant (`value` RFC 3339), within / not within the last
   * `value` days (1..365), present or not (no value).
   */
  | { on: 'date'; field: SegmentDateField; op: SegmentDateOp; value?: string | number }
  /** How many events of a type (whose values meet `conditions`) the contact sent, ever or within the last days. */
  | {
      on: 'event_count';
      event: string;
      conditions?: SegmentEventCondition[];
      op: EventCountOp;
      count: number;
      within_days?: number;
    }
  /**
   * Human opens and clicks of any e-mail, or of the e-mails of one journey or broadcast (`source`), ever or within
   * days (privacy proxies and link scanners never count); not_opened: sent the source's e-mail, opened none of them.
   */
  | { on: 'engagement'; op: EngagementOp; within_days?: number; source?: EngagementSource };

export interface SegmentGroup {
  match: SegmentMatch;
  conditions: SegmentCondition[];
}

export interface SegmentDefinition {
  match: SegmentMatch;
  groups: SegmentGroup[];
}

/** One issue of a definition, at its dotted JSON path (`groups.0.conditions.2.count`); '' is the whole definition. */
export interface SegmentIssue {
  path: string;
  condition: 'required' | 'type' | 'format' | 'min' | 'max' | 'enum' | 'reference';
  error: string;
}

/**
 * A contact's event counters (the EVCOUNT item), by event spec id (specs.ts): `recent` the newest event times (epoch
 * seconds, newest first, at most the spec's K), `total` the count since the spec was first compiled. `ev_v` is the
 * item's version: every write raises it, conditioned on the one read.
 */
export interface ContactCounters {
  ev_v: number;
  recent: Record<string, number[]>;
  total: Record<string, number>;
}

/**
 * One event counter a client's segments read: an event type with conditions on the event's values. Its id is the
 * first 8 hex digits of the sha256 of its canonical JSON, so the same counter written in two segments (or again after
 * an edit) is one counter. `k`: how many newest times each contact keeps (the largest count a windowed condition
 * needs); `max_days`: the longest window any condition reads, absent when none has one.
 */
export interface EventSpec {
  id: string;
  type: string;
  conditions: SegmentEventCondition[];
  k: number;
  max_days?: number;
}

/** A segment as the index holds it: the definition of its current version. */
export interface CompiledSegment {
  id: number;
  version: number;
  definition: SegmentDefinition;
}

/**
 * The SEGMENTINDEX body: every segment of the client at its current version, the event counters they read, and the
 * contact attributes whose change can move a contact in or out of one (the change router watches those).
 */
export interface SegmentIndexBody {
  segments: CompiledSegment[];
  specs: EventSpec[];
  watched: string[];
}

/**
 * What a segment is evaluated on: the contact, its counters (absent: none kept), the client's topics, and its
 * engagement with the sources the segments name, by source key (`B<broadcast>`, `J<journey>`; absent: none).
 */
export interface SegmentInput {
  contact: ContactRecord;
  counters?: ContactCounters;
  topics?: TopicSet;
  engagement?: Readonly<Record<string, EngagementFacts>>;
}
