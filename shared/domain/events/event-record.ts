import type { JourneyEntry } from '../runs/plan-entries.js';

/** Processing state of an event (the queue record's `status`); the event's own `status` is the caller's label. */
export type EventQueueStatus = 'queued' | 'processed' | 'failed';

/** An event as stored. */
export interface EventRecord {
  id: number;
  client_id: number;
  type: string;
  email?: string;
  uid?: string;
  auto_create_contact: boolean;
  action?: string;
  feature?: string;
  plan?: string;
  source?: string;
  status?: string;
  amount?: number;
  upgrade?: boolean;
  external_id?: string;
  idempotency_key?: string;
  metadata?: Record<string, unknown>;
  ts: string;
  /** The body as the caller sent it (the queue record's `payload`). */
  payload: Record<string, unknown>;
  /** How it was asked for: the answer an idempotent replay repeats (201/200 Event, or 202/200 queue record). */
  mode: 'sync' | 'async';
  queue_status: EventQueueStatus;
  retry_count: number;
  contact_id?: number;
  /** Snapshot of the contact when processed (SPEC's Event.contact summary). */
  contact?: { email: string; first_name: string | null; last_name: string | null };
  processed_at?: string;
  process_error?: string;
  /** Executions the event started (ids), for the read side and support. */
  execution_ids?: number[];
  /** Their workflows, in the same order: the day counters count each execution on its workflow from this write. */
  execution_workflow_ids?: number[];
  /** Workflows the event converted (an exit event within a sent e-mail's conversion window), for the day counters. */
  converted_workflow_ids?: number[];
  /**
   * Of those, the journeys' e-mails converted: the send step and split arms each came from, so the day counters count
   * the conversion on the step and the arms (absent when none).
   */
  converted_steps?: ConvertedStep[];
  /** The client's live journeys the event triggers: the run each started, or why none (absent when none). */
  journey_entries?: JourneyEntry[];
  /** Waiting runs the event resumed (absent when none). */
  resumed_run_ids?: number[];
  /** Their seq after the resumption, in the same order: a redelivered event dispatches each run at it again. */
  resumed_run_seqs?: number[];
  created_at: string;
  /**
   * `segment`: written by the membership engine when the contact entered or left a segment a live journey listens to
   * (`segment.entered` / `segment.left`, with `segment_id` and the contact's id); it only starts those journeys' runs.
   * Absent on every event a client sends.
   */
  origin?: 'segment';
  segment_id?: number;
}

/** Why processing could not use the event; the client reads it as `process_error`. */
export const PROCESS_ERRORS = {
  contactNotFound: 'contact_not_found',
  /** `auto_create_contact` for an address an erasure left suppressed (it hard-bounced or complained). */
  contactSuppressed: 'contact_suppressed',
  clientNotFound: 'client_not_found',
} as const;

/** A journey e-mail an exit event converted: its journey, send step and the split arms its run took. */
export interface ConvertedStep {
  journey_id: number;
  step_id: string;
  arms?: Record<string, string>;
}
