import { EXECUTION_STATUS, type ExecutionStatus } from '../executions/execution-record.js';
import { SYSTEM_STEP_IDS } from '../journeys/definition/system-journeys.js';
import type { RunStatus } from '../runs/run-record.js';
import { GOAL_REACHED } from '../workflows/goals.js';
import { WORKFLOW_IDS } from '../workflows/catalog.js';
import type { JourneyExitReason, JourneyFact, JourneyRunFields } from './facts.js';

/** What an execution item's change holds that a system journey's facts need (the stream image's fields). */
export interface ExecutionImage {
  id: number;
  workflow_id: number;
  contact_id: number;
  event_id: number | null;
  status: ExecutionStatus;
  reason?: string;
  is_test: boolean;
  run_id?: number;
  /** The event's fields (removed by the contact's erasure). */
  has_event: boolean;
  processed_at?: string;
  created_at: string;
  updated_at: string;
}

/** Statuses that end a system journey's run; retried (7) follows failed (4), which already ended it. */
const ENDING: readonly ExecutionStatus[] = [
  EXECUTION_STATUS.completed,
  EXECUTION_STATUS.failed,
  EXECUTION_STATUS.cancelled,
  EXECUTION_STATUS.skipped,
];

/** How a system journey's run ended, from its execution's outcome. */
export function systemJourneyExitOf(
  status: ExecutionStatus,
  reason: string | undefined,
): { status: RunStatus; reason?: JourneyExitReason } {
  if (status === EXECUTION_STATUS.completed) return { status: 'completed' };
  if (status === EXECUTION_STATUS.failed) return { status: 'ended', reason: 'send_failed' };
  if (status === EXECUTION_STATUS.skipped) return { status: 'ended', reason: 'send_skipped' };
  // Cancelled: by one of the workflow's exit events (its goal), by erasure, or queued past the client's timeout.
  if (reason === GOAL_REACHED) return { status: 'exited', reason: 'exit_event' };
  if (reason === 'contact_erased') return { status: 'ended', reason: 'contact_erased' };
  if (reason === 'queue_timeout') return { status: 'ended', reason: 'queue_timeout' };
  return { status: 'ended', reason: 'cancelled' };
}

/** Whether an execution is a system journey's run: one of the 8 workflows', for a contact (not a test send). */
export const isSystemJourneyExecution = (e: Pick<ExecutionImage, 'workflow_id' | 'run_id' | 'is_test'>): boolean =>
  e.run_id === undefined && !e.is_test && WORKFLOW_IDS.includes(e.workflow_id);

/**
 * The journey facts of one change of a system journey's execution (journeys 1–8 run as lone executions, no run):
 * - created: `journey.entered` (seq 1) at the `send` step — the execution is the send step; a delayed workflow's wait
 *   is its scheduled time, which the execution does not record as a step of its own;
 * - sent (completed): `journey.step_completed` for `send` (seq 2);
 * - ended (completed, failed, cancelled, skipped): `journey.exited` (seq 2), status and reason from the outcome.
 * Every other change (claimed, deferred, retried, its event data erased) is none. `previous` is absent for a creation.
 */
export function systemJourneyFactsOf(
  clientId: number,
  next: ExecutionImage,
  previous: Pick<ExecutionImage, 'status'> | undefined,
): JourneyFact[] {
  if (!isSystemJourneyExecution(next)) return [];
  const ended = ENDING.includes(next.status) && (previous === undefined || !ENDING.includes(previous.status));
  const exit = systemJourneyExitOf(next.status, next.reason);
  const run: JourneyRunFields = {
    id: null,
    execution_id: next.id,
    journey_id: next.workflow_id,
    version: null,
    contact_id: next.contact_id,
    event_id: next.event_id,
    status: ended ? exit.status : 'active',
    ...(ended && exit.reason !== undefined ? { reason: exit.reason } : {}),
    step_id: SYSTEM_STEP_IDS.send,
    updated_at: next.updated_at,
    erased: !next.has_event && next.reason === 'contact_erased',
  };
  const base = { kind: 'journey' as const, client_id: clientId, run };
  const facts: JourneyFact[] = [];
  if (previous === undefined) facts.push({ ...base, type: 'journey.entered', seq: 1, at: next.created_at });
  if (!ended) return facts;
  const at = next.processed_at ?? next.updated_at;
  if (next.status === EXECUTION_STATUS.completed)
    facts.push({
      ...base,
      type: 'journey.step_completed',
      step: { step: SYSTEM_STEP_IDS.send, seq: 2, at },
      seq: 2,
      at,
    });
  facts.push({ ...base, type: 'journey.exited', seq: 2, at: next.updated_at });
  return facts;
}
