import * as z from '../../validation/zod.js';
import { UtcTimestamp } from '../time/utc-timestamp.js';
import type { EventRecord } from './event-record.js';

const label = z.nullable(z.string());
const freeForm = z.record(z.string(), z.unknown());

/** SPEC.md's Event (OpenAPI `Event`): what the caller sent, and how processing went. */
export const EventView = z
  .object({
    id: z.int().check(z.gte(1)),
    client_id: z.int().check(z.gte(1)),
    contact_id: z
      .nullable(z.int())
      .check(z.meta({ description: 'The contact the event was matched to (null until processed, or not found)' })),
    contact: z
      .nullable(z.object({ email: z.string(), first_name: z.nullable(z.string()), last_name: z.nullable(z.string()) }))
      .check(z.meta({ description: 'Summary of the contact when the event was processed' })),
    type: z.string().check(z.meta({ examples: ['signup'] })),
    action: label,
    feature: label,
    plan: label,
    source: label,
    status: label.check(z.meta({ description: "The caller's label (processing state: `processed`, `process_error`)" })),
    amount: z.nullable(z.number()),
    upgrade: z.nullable(z.boolean()),
    external_id: label,
    idempotency_key: label,
    metadata: freeForm,
    ts: UtcTimestamp.check(z.meta({ description: 'When the event happened (the time of the request when not given)' })),
    processed: z.boolean(),
    processed_at: z.nullable(UtcTimestamp),
    process_error: z.nullable(z.string()).check(
      z.meta({
        description: 'Why processing could not use the event, e.g. `contact_not_found`',
        examples: ['contact_not_found'],
      }),
    ),
    execution_ids: z.array(z.int()).check(z.meta({ description: 'Extra: the executions the event started' })),
    journey_entries: z.optional(
      z
        .array(
          z.object({
            journey_id: z.int(),
            run_id: z.nullable(z.int()).check(z.meta({ description: 'The run started; null when none was' })),
            outcome: z.enum(['entered', 'in_flight', 'reentry_window', 'conditions', 'runs_limit']).check(
              z.meta({
                description:
                  '`entered`: a run started. `in_flight`: the contact is in a run of it for this key already. ' +
                  '`reentry_window`: its re-entry rule refuses another run yet (`once`: ever). `conditions`: the ' +
                  "trigger's conditions did not hold or the event lacks the trigger key. `runs_limit`: the contact " +
                  'is in as many runs as allowed.',
              }),
            ),
          }),
        )
        .check(
          z.meta({
            description:
              'Extra: each live journey the event triggers, with the run it started or why none (absent when none)',
          }),
        ),
    ),
    resumed_run_ids: z.optional(
      z
        .array(z.int())
        .check(z.meta({ description: 'Extra: the runs waiting for this event that it resumed (absent when none)' })),
    ),
    created_at: UtcTimestamp,
  })
  .check(z.meta({ id: 'Event', description: 'A business occurrence reported by the client; it drives workflows.' }));
export type EventView = z.output<typeof EventView>;

/** SPEC.md's Event. */
export function toEventView(e: EventRecord): EventView {
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
    // Only for an event that met a journey: the 8 workflows' events answer as they always have.
    ...(e.journey_entries && e.journey_entries.length > 0 ? { journey_entries: e.journey_entries } : {}),
    ...(e.resumed_run_ids && e.resumed_run_ids.length > 0 ? { resumed_run_ids: e.resumed_run_ids } : {}),
    created_at: e.created_at,
  };
}

/** SPEC.md's Event queue record (OpenAPI `EventQueueRecord`): the answer of an event accepted for later processing. */
export const EventQueueRecordView = z
  .object({
    id: z.int().check(z.gte(1), z.meta({ description: "One record per event: the event's id" })),
    event_id: z.int().check(z.gte(1)),
    client_id: z.int().check(z.gte(1)),
    idempotency_key: z.nullable(z.string()),
    payload: freeForm.check(z.meta({ description: 'The body as it was sent' })),
    status: z.enum(['queued', 'processed', 'failed']),
    retryable: z.boolean().check(z.meta({ description: 'Whether the queue will still try it (only while queued)' })),
    retry_count: z.int().check(z.gte(0)),
    process_error: z.nullable(z.string()),
    processed_at: z.nullable(UtcTimestamp),
    created_at: UtcTimestamp,
  })
  .check(z.meta({ id: 'EventQueueRecord', description: 'An event accepted for asynchronous processing.' }));
export type EventQueueRecordView = z.output<typeof EventQueueRecordView>;

/**
 * SPEC.md's Event queue record: one per event, so its `id` is the event's id. `retryable` says whether the queue
 * will still try it (queued) — a processed or failed event is final.
 */
export function toEventQueueRecordView(e: EventRecord): EventQueueRecordView {
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
