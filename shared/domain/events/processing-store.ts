import type { ConversionBroadcast, ConversionStore } from '../broadcasts/conversions.js';
import type { ClientRecord } from '../clients/client-store.js';
import type { ContactRecord } from '../contacts/contact-store.js';
import type { ExecutionRecord } from '../executions/execution-record.js';
import type { JourneyIndex } from '../journeys/journey-records.js';
import type { JourneyEntryOutcome, RunLockClaim } from '../runs/plan-entries.js';
import type { RunRecord } from '../runs/run-record.js';
import type { ContactCounters } from '../segments/definition/types.js';
import type { SegmentIndex } from '../segments/membership-store.js';
import type { SettingsRecord } from '../settings/settings-store.js';
import type { TopicSet } from '../topics/topic-store.js';
import type { OpenHours } from '../tracking/open-hours.js';
import type { CustomizationRecord } from '../workflows/customization.js';
import type { OpenExecution } from '../workflows/goals.js';
import type { EventRecord } from './event-record.js';

/** What processing one event reads besides the event: fetched together in one request. */
export interface ProcessingContext {
  contact?: ContactRecord;
  settings?: SettingsRecord;
  client?: ClientRecord;
  customizations: CustomizationRecord[];
  /** The client's aggregate open-hour histogram (send time mode 2's fallback); absent before any open. */
  clientOpenHours?: OpenHours;
  /** The client's live and paused journeys (absent: none was ever published). */
  journeyIndex?: JourneyIndex;
  /** The client's topics (journey conditions on a topic read them); absent when the client has none. */
  topics?: TopicSet;
  /** The client's segment index (the event specs it counts per contact); absent: the client has no segment. */
  segmentIndex?: SegmentIndex;
  /** The contact's event counters (EVCOUNT), read with the contact; absent: none kept yet. */
  counters?: ContactCounters;
  /** The client's broadcasts that count conversions (configuration); absent: none ever did. */
  broadcastConversions?: ConversionBroadcast[];
}

/** The contact's figures an event moves (DESIGN.md §8, docs/decisions/0041-event-effects-on-contacts.md "events update contacts"). */
export interface ContactEventUpdate {
  contactId: number;
  tags?: string[];
  lastPurchaseAt?: string;
  lastActivityAt?: string;
  /** Executions started (ADD). */
  workflowsStarted: number;
  at: string;
  /** The event exits these workflows: their goal marks are set to this event (`goal_w<id>`). */
  goalMarks?: { workflowIds: number[]; eventId: number };
  /** Queued executions created, listed on the contact (`open_<id>`) so an exit event finds them without a query. */
  opened?: OpenExecution[];
  /** Listed executions no longer queued (cancelled here, or found moved on): their entries go. */
  closed?: number[];
  /**
   * Conversions: the workflow's last e-mail to the contact, sent at `sentAt`, is converted by this exit —
   * `conv_w<id>` set to it, on the condition that it was not converted already (once per e-mail).
   */
  conversions?: { workflowId: number; sentAt: string }[];
  /**
   * Runs started: `run_<id>` = {j, q: 1, k?} (the contact's runs in flight; exits find them without a query). With
   * `runsRemoved`, they move the contact's run counter (`runs_n`); when that raises it, the update holds only while
   * the counter leaves room under JOURNEY_LIMITS.runsPerContact (else `contact_changed`: read again, decide again).
   */
  runsStarted?: { runId: number; journeyId: number; keyHash?: string }[];
  /**
   * The contact's run counter (`runs_n`, null: absent) and `run_<id>` markers as read, when the commit starts or ends
   * runs: the counter moves by their difference on a condition (runs-counter.ts).
   */
  runsRead?: { counter: number | null; markers: number };
  /** Waits this event resolved or ended: `wait_<id>` removed. */
  waitsRemoved?: number[];
  /** Runs this event's exits ended: `run_<id>` removed. */
  runsRemoved?: number[];
  /**
   * The contact's `waits_v` as read (null: absent) when the event's type is awaited by some journey: the update holds
   * only while no wait was entered since the read, so a wait written after it is not missed (`contact_changed`).
   */
  waitsVersionRead?: number | null;
  /**
   * The contact's event counters after this event (an event a segment counts): written beside the contact on the
   * condition that their `ev_v` is still the one read (`readVersion`, null: no counters yet), else `contact_changed`.
   */
  counters?: { next: ContactCounters; readVersion: number | null };
}

/** A run the event starts, with its lock (Put on the re-entry rule's condition). */
export interface RunEntryWrite {
  run: RunRecord;
  lock: RunLockClaim;
}

/** A waiting run the event resolves: active again at seq + 1, only while still waiting at that seq and step. */
export interface WaitResolution {
  runId: number;
  /** The seq and step the run waits at (its marker's `q` and `s`). */
  seq: number;
  stepId: string;
  eventId: number;
  at: string;
}

/** A run of a journey the event exits: ended `exited` / `exit_event` while active or waiting; its lock released. */
export interface RunExit {
  runId: number;
  journeyId: number;
  contactId: number;
  keyHash?: string;
  at: string;
  /** Skip the lock release (it was found gone or taken by a later try). */
  keepLock?: boolean;
}

/** A queued execution the exit event ends: 1 → 5 `goal_reached` with the event's id, only while still queued. */
export interface GoalCancellation {
  execution: OpenExecution;
  contactId: number;
  eventId: number;
  at: string;
}

export interface ProcessingCommit {
  event: EventRecord;
  executions: ExecutionRecord[];
  contact?: ContactEventUpdate;
  /** Executions the event's exits cancel (each conditioned on being queued still). */
  cancellations?: GoalCancellation[];
  /** Runs started (each run Put on a free id, its lock on its re-entry rule). */
  entries?: RunEntryWrite[];
  /** Waiting runs resumed by this event. */
  resolutions?: WaitResolution[];
  /** Runs ended by this event's exits. */
  runExits?: RunExit[];
}

/**
 * A commit refused by conditions on journey items, each named so the next try leaves it out: `refused` entries
 * (their lock held: `in_flight`, or inside the re-entry window: `reentry_window`), `resolutionsLost` (the run left the
 * wait first: its timeout won), `exitsMissed` (the run ended or moved on first), `locksGone` (the exited run's lock
 * is no longer its own).
 */
export interface JourneyRefusals {
  refused?: { journey_id: number; outcome: Extract<JourneyEntryOutcome, 'in_flight' | 'reentry_window'> }[];
  resolutionsLost?: number[];
  exitsMissed?: number[];
  locksGone?: number[];
}

/**
 * `moved`: these cancellations found their execution no longer queued (claimed, or ended): nothing was written.
 * `contact_changed`: a conversion was counted meanwhile (or the contact is gone): read the contact again.
 */
export type CommitOutcome =
  | 'committed'
  | 'already_processed'
  | 'id_taken'
  | 'contact_changed'
  | ({ moved: number[] } & JourneyRefusals);

export interface ProcessingStore extends Partial<ConversionStore> {
  /** The contact holding this e-mail or client_contact_id (one read of its lock). */
  findContactId(clientId: number, ref: { email: string } | { uid: string }): Promise<number | undefined>;
  /**
   * The contact (when an id is given), settings, profile, these workflows' customizations and the journey index: one
   * request. Processing asks for every catalog workflow's customization, as any may name the event among its exit
   * events.
   */
  loadContext(
    clientId: number,
    contactId: number | undefined,
    workflowIds: readonly number[],
  ): Promise<ProcessingContext>;
  /**
   * One transaction: the executions and runs created, the event stored as processed (only while it is still queued),
   * the contact's figures and markers, the runs resumed and exited. `id_taken`: a drawn execution or run id exists
   * already; draw again.
   */
  commit(commit: ProcessingCommit): Promise<CommitOutcome>;
}
