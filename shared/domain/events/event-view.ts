import type { EventRecord } from './event-record.js';

/** SPEC.md's Event. */
export function toEventView(e: EventRecord) {
  return {
    id: e.id,
    client_id: e.client_id,
    contact_id: e.contact_id ?? null,
    contact: e.contact ?? null,
    type: e.type,
    action: e.action ?? null,
    feature: e.feature ?? null,
    plan: e.plan ?? null,
    source: e.source ?? null,
    status: e.status ?? null,
    amount: e.amount ?? null,
    upgrade: e.upgrade ?? null,
    external_id: e.external_id ?? null,
    idempotency_key: e.idempotency_key ?? null,
    metadata: e.metadata ?? {},
    ts: e.ts,
    processed: e.queue_status !== 'queued',
    processed_at: e.processed_at ?? null,
    process_error: e.process_error ?? null,
    execution_ids: e.execution_ids ?? [],
    created_at: e.created_at,
  };
}

/**
 * SPEC.md's Event queue record: one per event, so its `id` is the event's id. `retryable` says whether the queue
 * will still try it (queued) — a processed or failed event is final.
 */
export function toEventQueueRecordView(e: EventRecord) {
  return {
    id: e.id,
    event_id: e.id,
    client_id: e.client_id,
    idempotency_key: e.idempotency_key ?? null,
    payload: e.payload,
    status: e.queue_status,
    retryable: e.queue_status === 'queued',
    retry_count: e.retry_count,
    process_error: e.process_error ?? null,
    processed_at: e.processed_at ?? null,
    created_at: e.created_at,
  };
}
