import type { ExecutionStatus } from '../../public/execution-rules.js';
import type { WorkflowCategory } from '../workflows/catalog.js';

export {
  EXECUTION_STATUS,
  EXECUTION_STATUS_TEXT as STATUS_TEXT,
  type ExecutionStatus,
} from '../../public/execution-rules.js';

/** One run of a workflow for a contact, as stored. */
export interface ExecutionRecord {
  id: number;
  client_id: number;
  workflow_id: number;
  contact_id: number;
  event_id: number | null;
  status: ExecutionStatus;
  reason?: string;
  /** Cancelled `goal_reached`: the exit event that ended it. */
  goal_event_id?: number;
  is_test: boolean;
  attempt: number;
  retried_from?: number;
  /** The effective template when the execution was created (customization → clone → system). */
  template_id: number;
  priority_score: number;
  critical: boolean;
  /** The contact's local day of `scheduled_for` (its daily cap counter), yyyy-mm-dd. */
  cap_day: string;
  scheduled_for: string;
  /**
   * The zone `scheduled_for` was planned in (contact → client → UTC). The send copies it onto the provider id's item,
   * so a human open is counted at its local hour without reading the contact.
   */
  send_zone?: string;
  /** Set while an executing (2) execution waits to retry a send that failed transiently (nothing left). */
  retry_pending?: boolean;
  /**
   * Set while an executing (2) execution's send failed ambiguously (a reset, a timeout, a 5xx after the request may
   * have reached the provider): it waits for evidence — a status notification — before anything is sent again.
   */
  outcome_unknown?: boolean;
  /** How many times its send was put off (quota, cap, window, paused sending, throttling): the day counters' `deferred`. */
  deferrals?: number;
  /** How many times SES throttled this execution's send (each deferred it): the next backoff grows with it. */
  throttled?: number;
  /** What the claim holding this execution at 2 reserved, so whoever ends or releases the claim gives back exactly that. */
  claim?: ExecutionClaim;
  /** The event's fields a template may use (`it.event.*`), copied so the send needs no event read. */
  event?: ExecutionEventVars;
  processed_at?: string;
  sent_email_id?: string;
  /**
   * The journey fields below are present only on an execution a journey's send step created (workflow_id is then the
   * journey's id, ≥ 1000). The 8 system workflows' executions never carry them, so their items and answers stay as
   * they were.
   */
  /** The run whose send step this is: its end wakes the run (RunMessage {run_id, seq: run_seq}). */
  run_id?: number;
  /** The run's seq after the send step's transition: the wake names it so a stale wake does nothing. */
  run_seq?: number;
  /** The send step's id in the journey's definition. */
  step_id?: string;
  /**
   * The split arms the run took before this send (split step id → arm name): the e-mail's status logs and its
   * conversion count on each arm, which is what a split's winner is read from. Absent when the run passed no split.
   */
  arms?: Record<string, string>;
  /** The journey version the run follows. */
  journey_version?: number;
  /** The journey's category (categoryOf knows only the 8): unsubscribed check, footer, SES tags, reservation. */
  category?: WorkflowCategory;
  /** The journey's topic (null: none); a topic id that names no topic any more is no topic. */
  topic_id?: number | null;
  /**
   * The broadcast fields below are present only on a broadcast's recipient (workflow_id is then 0): it carries its own
   * `category` and `topic_id` as a journey send does, is listed under its broadcast instead of the client's executions,
   * and waits in the broadcast's due index until the pacer releases it.
   */
  /** The broadcast this recipient belongs to. */
  broadcast_id?: number;
  /** A test send of this broadcast (is_test): not a recipient, not listed or counted. */
  broadcast_test_of?: number;
  /** The variant (0-based) of the broadcast's content this recipient gets. */
  variant?: number;
  /** In an A/B test's share: its variant's results are counted apart (`B<bid>#V<variant>`). */
  ab_test?: true;
  /** A subject of the broadcast's own that replaces the template's. */
  subject_override?: string;
  /**
   * When the recipient converted: its broadcast's conversion event came within the window after its e-mail was sent.
   * Set once (conditionally) by that event's processing; the day counters count its first appearance.
   */
  converted_at?: string;
  /**
   * An A/B test's holdout: no variant and no template yet (template_id 0); the winner's template and subject are
   * taken from its broadcast's head when it is sent, which the pacer does only once the winner is chosen.
   */
  holdout?: boolean;
  created_at: string;
  updated_at: string;
}

/** The provider id item's `send_zone` field for this execution's e-mail (nothing for an execution planned without one). */
export const messageZoneOf = (execution: Pick<ExecutionRecord, 'send_zone'>): { send_zone?: string } =>
  execution.send_zone !== undefined ? { send_zone: execution.send_zone } : {};

/**
 * The fields that place a journey's e-mail in its journey (its send step, the split arms its run took), copied from its
 * execution onto the provider id's item and the sent e-mail, so each status log names them without a read; nothing
 * for an e-mail of the 8 workflows.
 */
export const journeyPlaceOf = (execution: {
  step_id?: unknown;
  arms?: unknown;
}): { step_id?: string; arms?: Record<string, string> } => ({
  ...(typeof execution.step_id === 'string' ? { step_id: execution.step_id } : {}),
  ...(isArms(execution.arms) && Object.keys(execution.arms).length > 0 ? { arms: { ...execution.arms } } : {}),
});

/**
 * The fields that place a broadcast's e-mail in its broadcast (and variant), copied from its execution onto the sent
 * e-mail and the provider id's item, so its results are counted without a read; nothing for any other e-mail.
 */
export const broadcastPlaceOf = (execution: {
  broadcast_id?: unknown;
  variant?: unknown;
  ab_test?: unknown;
}): { broadcast_id?: number; variant?: number; ab_test?: true } =>
  typeof execution.broadcast_id === 'number'
    ? {
        broadcast_id: execution.broadcast_id,
        ...(typeof execution.variant === 'number' ? { variant: execution.variant } : {}),
        ...(execution.ab_test === true ? { ab_test: true as const } : {}),
      }
    : {};

const isArms = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((arm) => typeof arm === 'string');

/** The counters and the queued log one claim wrote (delivery-store.ts `claim`). */
export interface ExecutionClaim {
  /** The sent e-mail the claim created (sentEmailIdOf the execution). */
  sent_email_id: string;
  /** The client's quota counter: UTC month, day and shard. */
  quota_month: string;
  quota_day: string;
  quota_shard: number;
  /** Whether the contact's day cap (`cap_day`) was raised. */
  cap: boolean;
  /** The attempt's queued log. */
  log_at: string;
  log_id: string;
}

/** `it.event.*` of the templates. */
export interface ExecutionEventVars {
  type: string;
  ts: string;
  action?: string;
  feature?: string;
  plan?: string;
  amount?: number;
  upgrade?: boolean;
  metadata?: Record<string, unknown>;
}
