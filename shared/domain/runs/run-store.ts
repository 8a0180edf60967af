import type { ContactRecord } from '../contacts/contact-store.js';
import type { ExecutionRecord } from '../executions/execution-record.js';
import type { JourneyIndex, JourneyVersionRecord } from '../journeys/journey-records.js';
import type { SettingsRecord } from '../settings/settings-store.js';
import type { TopicSet } from '../topics/topic-store.js';
import type { OpenHours } from '../tracking/open-hours.js';
import type { OpenExecution } from '../workflows/goals.js';
import type { RunRecord, WaitMarker } from './run-record.js';

/** What one read of advance-runs asks for: the run and the client's configuration, and what hints name. */
export interface RunReadWants {
  runId?: number;
  /** The client's settings, journey index, topics and aggregate open hours (cached configuration). */
  config: boolean;
  contactId?: number;
  executionId?: number;
  /** E-mails whose COUNTED#open / COUNTED#click markers to read. */
  sentEmailIds?: readonly string[];
  /**
   * The segments a branch ahead names: the contact's SEGSTATE item is read (one item: every membership is on it) with
   * the client's segment index (configuration: cached), so a segment deleted since reads as no one's.
   */
  segments?: { contactId: number; segmentIds: readonly number[] };
  /**
   * Versions of a journey the message names (immutable): those the container has not read yet are read with the rest,
   * so a cold container still moves a run in one read.
   */
  versions?: { journeyId: number; versions: readonly number[] };
}

/** A human's engagement with one e-mail (the counted markers: never a privacy proxy or a scanner). */
export interface CountedEngagement {
  opened: boolean;
  clicked: boolean;
}

export interface RunReads {
  run?: RunRecord;
  /** The contact item, its engine attributes (`open_<id>`, `run_<id>`, `wait_<id>`, `waits_v`) included. */
  contact?: ContactRecord;
  execution?: ExecutionRecord;
  /** By sent e-mail id, for every id asked (false/false when nothing was counted). */
  engagement: Record<string, CountedEngagement>;
  /** By segment id, for every id asked in `segments`: the contact is in it (and the segment still exists). */
  segments?: Record<number, boolean>;
  settings?: SettingsRecord;
  index?: JourneyIndex;
  topics?: TopicSet;
  clientOpenHours?: OpenHours;
  /** The versions asked in `versions` that exist (a version the run does not name is the caller's to leave aside). */
  versions?: JourneyVersionRecord[];
}

/** What a transition changes on the contact item (in the same transaction as the run). */
export interface RunContactChange {
  contactId: number;
  /** Contact fields set (`null` removes the attribute). */
  fields?: Record<string, string | null>;
  /** The whole tag list and custom field map after an update_contact step (read-modify-write: see `seenUpdatedAt`). */
  tags?: string[];
  customFields?: ContactRecord['custom_fields'];
  /** The contact's `updated_at` as read: a whole-value write above is conditioned on it (a concurrent change retries). */
  seenUpdatedAt?: string;
  /** Entering a wait_for_event: `wait_<run>` set and `waits_v` raised. */
  wait?: { runId: number; marker: WaitMarker };
  /** Leaving a wait_for_event by its timeout, or ending while waiting: `wait_<run>` removed. */
  removeWait?: number;
  /** The run ended: `run_<run>` removed. */
  removeRun?: number;
  /** A send step's queued execution, listed as processing lists one (`open_<id>`, active_workflow_count + 1). */
  opened?: OpenExecution;
  at: string;
}

/**
 * One transition of a run: one transaction. `run` is the run after it; the write is conditioned on the run still at
 * `expectedSeq` and active or waiting (`hold`: the seq stays — only the due time moves; otherwise it is raised by one).
 */
export interface RunTransition {
  run: RunRecord;
  expectedSeq: number;
  /** Only the due time moves: `run.seq` is `expectedSeq` (a paused journey, a send still pending). */
  hold?: boolean;
  contact?: RunContactChange;
  /** Send steps' executions created with the run's move (a queued one's cap `pending` entry with it). */
  executions?: ExecutionRecord[];
  /** The run ended: its lock (journey, contact, key hash) no longer holds a run in flight. */
  releaseLock?: { journeyId: number; contactId: number; keyHash?: string };
}

/**
 * `stale`: the run is no longer at the expected seq or no longer active/waiting (another message, an event, an exit
 * moved it first): nothing was written. `contact_changed`: the contact changed under a whole-value write (tags,
 * custom fields) or is gone: nothing was written; read again.
 */
export type TransitionOutcome = 'committed' | 'stale' | 'contact_changed';

/** A run due since before the sweep's horizon, with what its message carries. */
export interface DueRun {
  client_id: number;
  run_id: number;
  seq: number;
  contact_id: number;
  due_at: string;
  execution_id?: number;
  journey_id: number;
  version: number;
}

export interface DueRunPage {
  runs: DueRun[];
  cursor?: string;
}

export interface RunStore {
  /** One BatchGetItem (configuration and the versions asked from the container's cache when it holds them). */
  read(clientId: number, wants: RunReadWants): Promise<RunReads>;
  /** These versions of a journey (immutable: each read once per container). Missing ones are left out. */
  versions(clientId: number, journeyId: number, versions: readonly number[]): Promise<JourneyVersionRecord[]>;
  /** One TransactWriteItems: the run first (conditioned on its seq and status), then the contact, execution, lock. */
  transition(transition: RunTransition): Promise<TransitionOutcome>;
  /** Runs still active or waiting whose due time is before `before` (the RUNDUE index), read with their seq. */
  dueBefore(before: string, limit: number, cursor?: string): Promise<DueRunPage>;
  /**
   * A contact's erasure (its history lists these runs, found through gsi2 RUN#): each one still active or waiting
   * ends `contact_erased`, every one loses its trigger event and key value, and each run's lock is deleted.
   */
  eraseRuns(clientId: number, runIds: readonly number[], at: string): Promise<{ runs: number; ended: number }>;
  /** Every run still due (active or waiting), whatever its time (the local runtime's restart re-dispatches them). */
  allDue(limit: number, cursor?: string): Promise<DueRunPage>;
}
