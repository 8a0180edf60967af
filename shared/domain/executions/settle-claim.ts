import { dispatchExecution } from '../engine/dispatch.js';
import { EXECUTION_STATUS, type ExecutionRecord } from './execution-record.js';
import type { ExecuteDeps, ExecuteOutcome } from './execute-workflow.js';
import { wakeRunOf } from './wake-run.js';

/** Why a claimed execution was completed without its worker's answer: a status notification named the e-mail. */
export const CONFIRMED_BY_NOTIFICATION = 'send_confirmed_by_notification';
/** Why a claimed execution was sent again: no notification of its e-mail came within the lease. */
export const RESENT_WITHOUT_EVIDENCE = 'send_outcome_unknown_resent';

/** Past its lease, a claim's outcome is decided; within it, the execution comes back when the lease ends. */
export const leaseEndOf = (execution: Pick<ExecutionRecord, 'updated_at'>, leaseMs: number): number =>
  Date.parse(execution.updated_at) + leaseMs;

/** Seconds added to a lease end before the execution is looked at again, so it is past it on arrival. */
const LEASE_MARGIN_MS = 1_000;

/** The execution comes back as a message delayed to just past its lease end (one SQS send; the lease ≤ 840 s fits). */
export async function waitForLeaseEnd(
  deps: ExecuteDeps,
  execution: Pick<ExecutionRecord, 'client_id' | 'id' | 'updated_at'>,
  now: Date,
): Promise<{ kind: 'waiting' }> {
  const at = new Date(leaseEndOf(execution, leaseMsOf(deps)) + LEASE_MARGIN_MS);
  await dispatchExecution(deps, { client_id: execution.client_id, execution_id: execution.id }, at, now);
  return { kind: 'waiting' };
}

export type SettleResult = ExecuteOutcome | { kind: 'released'; execution: ExecutionRecord };

/**
 * An execution found at 2 (executing) without `retry_pending`: a worker claimed it and then either is still sending,
 * died (timeout, crash, OOM) or got an ambiguous answer from SES. Never dropped, never sent blindly:
 * 1. evidence first: a status notification of its e-mail (SES accepted it) completes it at once with that message id;
 * 2. within the lease, it comes back when the lease ends (a delayed message — SQS would otherwise drop this delivery);
 * 3. past the lease with no evidence, the claim is released (counters given back, `retry_pending`) and the caller
 *    sends it, once: the release is conditional on the execution as read, so only one worker wins it.
 * `leaseVoid`: the caller knows no worker holds the claim (the local runtime at boot: every worker died with the
 * process, and its SES journal has been replayed), so the decision is made now.
 * Requests: one Query for the evidence, then one transaction (confirm or release) or one SQS send (wait); a journey's
 * send confirmed from evidence wakes its run (one SQS send more).
 */
export async function settleClaim(
  deps: ExecuteDeps,
  execution: ExecutionRecord,
  now: Date,
  options: { leaseVoid?: boolean } = {},
): Promise<SettleResult> {
  const at = now.toISOString();
  const providerMessageId = await deps.delivery.findEvidence(execution);
  if (providerMessageId) {
    const confirmed = await deps.delivery.confirmSent(execution, providerMessageId, CONFIRMED_BY_NOTIFICATION, at);
    if (confirmed !== 'done') return { kind: 'duplicate' };
    await wakeRunOf(deps, execution);
    return { kind: 'finished', status: EXECUTION_STATUS.completed, reason: CONFIRMED_BY_NOTIFICATION };
  }
  if (!options.leaseVoid && now.getTime() < leaseEndOf(execution, leaseMsOf(deps)))
    return waitForLeaseEnd(deps, execution, now);
  if (!(await deps.delivery.releaseClaim(execution, RESENT_WITHOUT_EVIDENCE, at))) return { kind: 'duplicate' };
  const { claim: _claim, outcome_unknown: _unknown, ...rest } = execution;
  return {
    kind: 'released',
    execution: {
      ...rest,
      retry_pending: true,
      reason: RESENT_WITHOUT_EVIDENCE,
      attempt: execution.attempt + 1,
      updated_at: at,
    },
  };
}

/** An execution left executing this long has lost its worker, or its send's outcome is unknown (AWS default). */
export const DEFAULT_LEASE_MS = 10 * 60 * 1000;

export const leaseMsOf = (deps: Pick<ExecuteDeps, 'leaseMs'>): number => deps.leaseMs ?? DEFAULT_LEASE_MS;
