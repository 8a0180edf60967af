import { EXECUTION_STATUS, type ExecutionRecord } from '../../domain/executions/execution-record.js';
import { ENTITY, keys } from './keys.js';

/** An execution as a table item: its own key, its per-client listing entry in gsi1, its contact's history in gsi2. */
export const executionItem = (execution: ExecutionRecord) => ({
  ...keys.execution(execution.client_id, execution.id),
  ...keys.executionListing(execution.client_id, execution.id, execution.created_at),
  ...keys.contactHistory(execution.client_id, execution.contact_id, 'EXEC', execution.created_at, execution.id),
  // A queued execution is pending work until it ends: in the stuck index by its due time.
  ...(execution.status === EXECUTION_STATUS.queued
    ? keys.executingEntry(execution.client_id, execution.id, execution.scheduled_for)
    : {}),
  ...execution,
  entity: ENTITY.execution,
});

/** What ends with a claim (status 2 → any other): its record, its flags and its stuck-execution index entry (gsi3). */
export const ENDED_CLAIM = 'REMOVE claim, outcome_unknown, retry_pending, gsi3pk, gsi3sk';
