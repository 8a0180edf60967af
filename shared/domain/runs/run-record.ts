/**
 * A run: one contact's way through one journey (one per contact and key value while active). The run is the state
 * machine; a `send` step creates an ordinary execution, so every guarantee of today's send path holds for it.
 *
 * Every transition is one conditional write guarded by `seq` (the write sets `seq + 1`): a redelivered or late message
 * (an old seq) does nothing, and an event and a timeout racing for one wait cannot both move it.
 */
import type { ExecutionEventVars } from '../executions/execution-record.js';
import type { StepId } from '../journeys/definition/types.js';

/**
 * active: due to move at `due_at` (a wait, or now). waiting: in a `wait_for_event` until its event or `due_at` (the
 * timeout). completed: reached a null edge. exited: an exit event or an `exit` step. ended: stopped by the service
 * (`reason`).
 */
export type RunStatus = 'active' | 'waiting' | 'completed' | 'exited' | 'ended';
export const RUN_ENDED_STATUSES: readonly RunStatus[] = ['completed', 'exited', 'ended'];

export type RunEndReason =
  | 'exit_step'
  | 'exit_event'
  | 'version_removed'
  | 'journey_archived'
  | 'contact_erased'
  | 'send_failed';

/** One step the run passed, in order (at most one per step: a journey has no cycle). */
export interface RunPathEntry {
  step: StepId;
  /** The seq of the transition that left it. */
  seq: number;
  at: string;
  /** How it was left: `on_event` / `on_timeout`, a branch's name or `otherwise`, a split arm's name. */
  via?: string;
}

export interface RunRecord {
  id: number;
  client_id: number;
  journey_id: number;
  /** The version whose step `step_id` is. */
  version: number;
  /** Set when the publisher chose `finish_old` for this run's step: it follows this version to its end. */
  pinned?: boolean;
  contact_id: number;
  event_id: number;
  /** sha256 of the trigger key's value (the lock's and the wait markers' `k`), and the value itself when ≤ 200 chars. */
  key_hash?: string;
  key_value?: string;
  status: RunStatus;
  reason?: RunEndReason;
  step_id: StepId;
  seq: number;
  step_entered_at: string;
  /** When the run is next due: a wait's end, a wait_for_event's timeout, a send's check; absent once ended. */
  due_at?: string;
  /** What the current step waits on. */
  wait?: {
    kind: 'wait' | 'wait_until' | 'wait_for_event' | 'send';
    until?: string;
    event?: string;
    execution_id?: number;
  };
  /** Set by event processing when an awaited event resumed the run (the next transition takes `on_event`). */
  resumed_by?: { event_id: number; at: string };
  /** Each send step's execution and e-mail (the engagement conditions read its counted opens and clicks). */
  sends: Record<StepId, { execution_id: number; sent_email_id?: string }>;
  branches: Record<StepId, string>;
  arms: Record<StepId, number>;
  path: RunPathEntry[];
  /** The trigger event as conditions and templates read it (≤ 4 KB of metadata, as executions copy it). */
  event: ExecutionEventVars & { payload?: Record<string, unknown> };
  created_at: string;
  updated_at: string;
  ended_at?: string;
  /** TTL: 90 days after it ended. */
  expires_at?: number;
}

/** `run_<run id>` on the contact item: the contact's runs in flight (exit events find them without a query). */
export interface RunMarker {
  /** journey id */
  j: number;
  /** the run's seq when the marker was written */
  q: number;
  /** the run's key hash, when its trigger has a key (an exit event releases the run's lock without reading the run) */
  k?: string;
}

/**
 * `wait_<run id>` on the contact item while the run waits for an event: processing an event matches it with no read
 * of its own (the contact is read anyway). `waits_v` on the contact counts marker writes, so a commit made on a read
 * older than a new wait is refused and read again.
 */
export interface WaitMarker {
  j: number;
  /** version and step of the wait */
  v: number;
  s: StepId;
  /** the seq the resolution must find (the run's seq while waiting) */
  q: number;
  /** the awaited event type */
  e: string;
  /** the run's key hash, when the wait matches on the key */
  k?: string;
  /** the wait's conditions (on the awaited event and the contact), copied so matching reads nothing */
  c?: unknown[];
  /** the timeout instant (the run's due_at): the event that wins releases the timeout's schedule by it */
  t?: string;
}

export const runMarkerAttribute = (runId: number): string => `run_${runId}`;
export const waitMarkerAttribute = (runId: number): string => `wait_${runId}`;
export const WAITS_VERSION_ATTRIBUTE = 'waits_v';
/**
 * `runs_n` on the contact item: how many `run_<id>` markers it holds, kept in the writes that add and remove them, so
 * the commit that starts runs can hold the runs-per-contact limit as a condition rather than on a count it read.
 */
export const RUNS_IN_FLIGHT_ATTRIBUTE = 'runs_n';
