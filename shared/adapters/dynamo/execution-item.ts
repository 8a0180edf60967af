import type { ExecutionRecord } from '../../domain/executions/execution-record.js';
import { keys } from './keys.js';

/** An execution as a table item: its own key plus its per-client listing entry in gsi1. */
export const executionItem = (execution: ExecutionRecord) => ({
  ...keys.execution(execution.client_id, execution.id),
  ...keys.executionListing(execution.client_id, execution.id, execution.created_at),
  ...execution,
});
