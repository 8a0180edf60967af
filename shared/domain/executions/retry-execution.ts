import { DateTime } from 'luxon';
import { conflict, notFound } from '../../errors.js';
import type { Clock } from '../../platform.js';
import { dispatchExecution, type DispatchDeps } from '../engine/dispatch.js';
import { timeOrderedId } from '../ids/time-ordered-id.js';
import { EXECUTION_STATUS, STATUS_TEXT, type ExecutionRecord } from './execution-record.js';
import type { ExecutionStore } from './execution-store.js';
import type { ExecutionRetryView } from './execution-view.js';

export interface RetryDeps extends DispatchDeps {
  clock: Clock;
  executions: ExecutionStore;
}

/**
 * POST /client/executions/{id}/retry: only a failed (4) execution; it becomes retried (7) and a new execution with
 * `retried_from` is queued now, in one transaction, then dispatched. Anything else is 409 `state`.
 */
export async function retryExecution(
  deps: RetryDeps,
  clientId: number,
  executionId: number,
): Promise<ExecutionRetryView> {
  const original = executionId > 0 ? await deps.executions.get(clientId, executionId) : undefined;
  if (!original) throw notFound('execution_id', 'Execution not found');
  const refuse = () =>
    conflict(
      'state',
      'execution_id',
      `Only a failed execution can be retried; this one is ${STATUS_TEXT[original.status]}`,
    );
  if (original.status !== EXECUTION_STATUS.failed) throw refuse();
  // A broadcast's recipients go out at the broadcast's pace, through its own listing: the broadcast retries them.
  if (original.broadcast_id !== undefined) {
    throw conflict(
      'state',
      'execution_id',
      `A broadcast's recipient is retried with its broadcast: POST /client/broadcasts/${original.broadcast_id}/retry-failed`,
    );
  }
  const now = deps.clock.now();
  const at = now.toISOString();
  const { reason: _reason, processed_at: _processed, sent_email_id: _sent, ...kept } = original;
  const next: ExecutionRecord = {
    ...kept,
    id: timeOrderedId(now),
    status: EXECUTION_STATUS.queued,
    attempt: original.attempt + 1,
    retried_from: original.id,
    scheduled_for: at,
    // The contact's zone is not read here: the retry counts against today's cap in UTC.
    cap_day: DateTime.fromJSDate(now, { zone: 'utc' }).toISODate()!,
    created_at: at,
    updated_at: at,
  };
  if (!(await deps.executions.retry(original, next, at))) throw refuse();
  await dispatchExecution(deps, { client_id: clientId, execution_id: next.id }, now, now);
  return {
    execution_id: next.id,
    queue_id: next.id,
    workflow_id: next.workflow_id,
    contact_id: next.contact_id,
    is_test: next.is_test,
    status: next.status,
    status_text: STATUS_TEXT[next.status],
    reason: null,
    processed_at: null,
    retried_from: original.id,
  };
}
