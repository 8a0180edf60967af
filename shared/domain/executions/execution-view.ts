import { findWorkflow } from '../workflows/catalog.js';
import { STATUS_TEXT, type ExecutionRecord } from './execution-record.js';

/** An item of GET /client/executions (DESIGN.md §5). */
export function toExecutionView(e: ExecutionRecord) {
  return {
    id: e.id,
    workflow_id: e.workflow_id,
    workflow_name: findWorkflow(e.workflow_id)?.name ?? null,
    contact_id: e.contact_id,
    event_id: e.event_id,
    status: e.status,
    status_text: STATUS_TEXT[e.status],
    reason: e.reason ?? null,
    is_test: e.is_test,
    attempt: e.attempt,
    retried_from: e.retried_from ?? null,
    scheduled_for: e.scheduled_for,
    processed_at: e.processed_at ?? null,
    sent_email_id: e.sent_email_id ?? null,
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
}
export type ExecutionView = ReturnType<typeof toExecutionView>;
