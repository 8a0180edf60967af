/**
 * A journey as a client writes it: a trigger, a flat list of steps joined by step ids, and settings. Plain data (JSON
 * over the API, stored as is on each version), validated by the zod schemas beside this file (schemas.ts, which
 * `satisfies` these types) and by validate-journey.ts for what a schema cannot say (reachability, cycles, references).
 *
 * Edges are fields holding a step id (`next`, `on_event`, `on_timeout`, each branch's and arm's `next`, `otherwise`);
 * `null` ends the run there. Every edge key is required, so "every branch ends" is checked, never assumed, and the
 * graph needs no recursion in the schema, the document, the diff or the drawing.
 */
import type { SendTimeMode, WorkflowCategory } from '../../workflows/catalog.js';
import type { SPLIT_WINNER_METRICS } from '../../../public/journey-rules.js';

/** A step id the client chooses and sees: STEP_ID_PATTERN (shared/public/journey-rules.ts). */
export type StepId = string;
/** An edge: the next step, or null to end the run. */
export type Next = StepId | null;

/**
 * Where a condition reads an event's value: one of the event's own fields, `metadata.<a>[.<b>…]` or
 * `payload.<a>[.<b>…]` (at most 4 segments after the root); a bare name means `payload.<name>`.
 */
export type PropertyPath = string;

export type ValueOp =
  | 'eq'
  | 'neq'
  | 'in'
  | 'not_in'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte'
  | 'contains'
  | 'exists'
  | 'not_exists';
/** A compared value: a string, number or boolean; `in` / `not_in` take a list (≤ 50) of them. */
export type ConditionValue = string | number | boolean | readonly (string | number | boolean)[];

/** The contact's own fields a condition may read. */
export const CONTACT_CONDITION_FIELDS = [
  'email',
  'first_name',
  'last_name',
  'company',
  'phone',
  'timezone',
  'is_subscribed',
  'signup_source',
  'health_score',
  'total_emails_sent',
  'total_emails_opened',
  'total_emails_clicked',
  'created_at',
  'last_activity_at',
  'last_purchase_at',
  'last_email_opened_at',
] as const;
export type ContactConditionField = (typeof CONTACT_CONDITION_FIELDS)[number];

export type Condition =
  /** The trigger event's value (in a trigger, a branch), or the awaited event's (in a wait_for_event). */
  | { on: 'event'; path: PropertyPath; op: ValueOp; value?: ConditionValue }
  | { on: 'contact'; field: ContactConditionField; op: ValueOp; value?: ConditionValue }
  | { on: 'custom_field'; name: string; op: ValueOp; value?: ConditionValue }
  | { on: 'tag'; op: 'has' | 'has_not'; tag: string }
  | { on: 'topic'; topic_id: number; op: 'subscribed' | 'unsubscribed' }
  /**
   * The human engagement with the e-mail an earlier `send` step of this run sent: opened or clicked by a person
   * (privacy-proxy and scanner opens and clicks never count), or neither.
   */
  | { on: 'engagement'; send_step: StepId; op: 'human_opened' | 'human_clicked' | 'neither' }
  /**
   * Whether the contact is in one of the client's segments, as the membership engine last wrote it (read by branch
   * steps only; a segment deleted since is no one's).
   */
  | { on: 'segment'; segment_id: number; op: 'member' | 'not_member' };

export type Reentry = { mode: 'once' } | { mode: 'every_days'; days: number } | { mode: 'always' };

/** A segment trigger: a run starts when the membership engine moves the contact into (`enter`) or out of (`leave`) it. */
export interface SegmentTrigger {
  segment_id: number;
  on: 'enter' | 'leave';
}

export interface JourneyTrigger {
  /** The event type that starts a run: any type the client sends (not `*`). Exactly one of `event` and `segment`. */
  event?: string;
  /** A segment whose entering or leaving starts a run (no `key`, no `or_when`). */
  segment?: SegmentTrigger;
  /** All must hold on the event (and the contact) for a run to start. */
  conditions?: Condition[];
  /**
   * Also starts on an event of any type meeting all these event conditions (a system journey's "or when upgrade is
   * true"; a copy keeps it). Event processing reads it on every live journey, within the per-trigger bound.
   */
  or_when?: Condition[];
  /** An event property: one run per (contact, its value); a `wait_for_event` with `match_key` waits for the same value. */
  key?: PropertyPath;
  reentry: Reentry;
}

interface StepBase {
  id: StepId;
  /** A label for people (the dashboard); not used by the engine. */
  name?: string;
}

export interface SendTime {
  /** 0 immediately, 1 the preferred local time, 2 optimal from the contact's human opens (as a workflow's). */
  mode: SendTimeMode;
  preferred_hour?: number;
  preferred_minute?: number;
  /** Mode 1 without an hour: the client's morning or afternoon slot. */
  slot?: 'morning' | 'afternoon';
}

export interface SendStep extends StepBase {
  type: 'send';
  /** A system template or a live template of the client's. */
  template_id: number;
  /** 0–100: which e-mail wins a contact's daily cap (default 50). */
  priority_score?: number;
  send_time: SendTime;
  next: Next;
}
export interface WaitStep extends StepBase {
  type: 'wait';
  minutes: number;
  next: Next;
}
export interface WaitUntilStep extends StepBase {
  type: 'wait_until';
  /** `HH:MM`, 24-hour, in the contact's time zone (→ the client's → UTC). */
  time: string;
  /** ISO weekdays (1 Monday … 7 Sunday); absent: any day. */
  weekdays?: number[];
  next: Next;
}
export interface WaitForEventStep extends StepBase {
  type: 'wait_for_event';
  event: string;
  /** On the awaited event (and the contact). */
  conditions?: Condition[];
  /** Only an event whose trigger-key property holds this run's key value counts (needs `trigger.key`). */
  match_key: boolean;
  timeout_minutes: number;
  on_event: Next;
  on_timeout: Next;
}
export interface BranchStep extends StepBase {
  type: 'branch';
  /** The first whose conditions all hold is taken. */
  branches: { name: string; conditions: Condition[]; next: Next }[];
  otherwise: Next;
}
export interface SplitStep extends StepBase {
  type: 'split';
  /** Percentages summing to 100; a run's arm is fixed by a hash of its id and the step's (a replay takes the same). */
  arms: { name: string; percent: number; next: Next }[];
  /** Once every arm has sent enough, the arm with the best rate takes every run that reaches the split after. */
  winner?: SplitWinnerRule;
}
/** A split's automatic winner: on which rate, after how many sends per arm, and after how long at least. */
export interface SplitWinnerRule {
  metric: SplitWinnerMetric;
  min_sends_per_arm: number;
  /** Hours from the split's first run before a winner is chosen (0: as soon as the sends are there). */
  min_hours?: number;
}
export type SplitWinnerMetric = (typeof SPLIT_WINNER_METRICS)[number];
export interface UpdateContactStep extends StepBase {
  type: 'update_contact';
  /** Contact fields to set (null clears). */
  set?: Partial<Record<'first_name' | 'last_name' | 'company' | 'phone' | 'timezone', string | null>>;
  /** Custom fields to set (null clears). */
  set_custom?: Record<string, string | number | boolean | null>;
  add_tags?: string[];
  remove_tags?: string[];
  next: Next;
}
export interface ExitStep extends StepBase {
  type: 'exit';
}

export type JourneyStep =
  | SendStep
  | WaitStep
  | WaitUntilStep
  | WaitForEventStep
  | BranchStep
  | SplitStep
  | UpdateContactStep
  | ExitStep;
export type StepType = JourneyStep['type'];

export interface JourneySettings {
  category: WorkflowCategory;
  /** Marketing only: the topic its e-mails go under (a contact who left it gets none). */
  topic_id: number | null;
  /** Transactional only: may pass the contact's daily cap when the client allows critical mail to. */
  critical: boolean;
  /** Event types (or `*`) that end the contact's run of this journey (≤ 10; never the trigger's type). */
  exit_events: string[];
  /** A run's e-mail counts as converted when an exit event follows within this many days (1–90). */
  conversion_window_days: number;
}

export interface JourneyDefinition {
  trigger: JourneyTrigger;
  /** The first step. */
  entry: StepId;
  steps: JourneyStep[];
  settings: JourneySettings;
}

/** An issue validation found, at its JSON path in the definition (`steps.3.on_timeout`), with an error condition. */
export interface JourneyIssue {
  path: string;
  condition: 'required' | 'type' | 'format' | 'min' | 'max' | 'enum' | 'unique' | 'reference' | 'graph' | 'read_only';
  error: string;
}
