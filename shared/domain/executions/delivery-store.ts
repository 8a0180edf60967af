import type { ClientRecord } from '../clients/client-store.js';
import type { ContactRecord } from '../contacts/contact-store.js';
import type { SentEmailLogRecord, SentEmailRecord } from '../sent-emails/sent-email-record.js';
import type { SettingsRecord } from '../settings/settings-store.js';
import type { TemplateRecord } from '../templates/template-store.js';
import type { CustomizationRecord } from '../workflows/customization.js';
import type { IndexedJourney } from '../journeys/journey-records.js';
import type { SenderState } from '../domains/sender-state.js';
import type { TopicSet } from '../topics/topic-store.js';
import { quotaShardOf } from './quota-shards.js';
import { sentEmailIdOf } from '../sent-emails/sent-email-id.js';
import type { ExecutionClaim, ExecutionRecord } from './execution-record.js';

/** Everything a send reads besides the execution: one request. */
export interface SendContext {
  contact?: ContactRecord;
  settings?: SettingsRecord;
  client?: ClientRecord;
  customization?: CustomizationRecord;
  /**
   * A journey's send: its journey as the client's journey index holds it (read in the same request, with the cached
   * configuration). Absent when the index no longer lists it (archived). Never read for the 8 system workflows.
   */
  journey?: IndexedJourney;
  /** The client's topics, for a marketing workflow; absent when none were read or none exist. */
  topics?: TopicSet;
  /** The execution's client template (absent for a system template or a deleted one). */
  template?: TemplateRecord;
  /** The contact's counter for the execution's local day: e-mails sent, and the executions waiting for a slot. */
  cap: DayCap;
  /** The client's sending state: verified domains, SES tenant and its pause (absent until its first domain or tenant). */
  sender?: SenderState;
  /**
   * A broadcast recipient's broadcast as it is now (read strongly with the contact: a pause or a cancel holds at the
   * next send). Absent when the broadcast is gone.
   */
  broadcast?: BroadcastSendState;
}

/** What a send reads of a recipient's broadcast: its state, and how many due partitions it waits in. */
export interface BroadcastSendState {
  status: string;
  shards?: number;
  /** An A/B test's winner once chosen, with its content: what a holdout is sent. */
  winner?: { variant: number; template_id: number; subject?: string };
}

/** `pending`: execution id → priority score of the queued executions that will compete for the day's slots. */
export interface DayCap {
  sent: number;
  pending: Record<string, number>;
}

export interface Reservation {
  execution: ExecutionRecord;
  sentEmail: SentEmailRecord;
  log: SentEmailLogRecord;
  /** The one-click unsubscribe link of this e-mail (List-Unsubscribe). */
  unsubscribeUrl: string;
  quota: { day: string; dayLimit: number; month: string; monthLimit: number };
  /** When the claim is made; the execution must be due by then. */
  at: string;
  /** Absent when the workflow bypasses the contact's daily cap. */
  contactCap?: { limit: number };
}

/** `quota_month` when this month's quota is spent (whatever the day's), `quota_day` when only today's is. */
/** `goal_reached`: an exit event of the workflow was processed for the contact after the load. */
export type ClaimOutcome = 'claimed' | 'quota_day' | 'quota_month' | 'contact_cap' | 'goal_reached' | 'taken';

/** What a claim for this reservation reserves, as the execution keeps it (its `claim`). */
export function claimOf(r: Reservation): ExecutionClaim {
  return {
    sent_email_id: r.sentEmail.id,
    quota_month: r.quota.month,
    quota_day: r.quota.day,
    quota_shard: quotaShardOf(r.execution.id, r.quota).shard,
    cap: r.contactCap !== undefined,
    log_at: r.log.created_at,
    log_id: r.log.id,
  };
}

/** The execution as the claim for `r` left it: executing, `updated_at` the claim's time, holding the claim. */
export const claimedExecution = (r: Reservation): ExecutionRecord => {
  const { retry_pending: _r, outcome_unknown: _o, ...execution } = r.execution;
  return { ...execution, status: 2, updated_at: r.at, claim: claimOf(r) };
};

/** `moved`: the execution was no longer at 2 as read (another worker or a notification ended it first). */
export type SettleOutcome = 'done' | 'moved';

export interface DeliveryStore {
  load(execution: ExecutionRecord): Promise<SendContext>;
  /**
   * The addresses a client in the sandbox may send to besides SES's simulator: its dashboard users' (one Query of the
   * client's users, made only for a client in the sandbox).
   */
  sandboxRecipients(clientId: number): Promise<string[]>;
  /**
   * SES refused a send because the client's tenant is paused, or said it still is: the sender state keeps when it was
   * first seen paused (`tenant_paused_at`), why, and when this was last asked (`tenant_checked_at`). Nothing is written
   * for a client without a sender state (it names no tenant).
   */
  markTenantPaused(clientId: number, reason: string, at: string): Promise<void>;
  /** SES says the tenant sends again: the pause seen at `pausedAt` is removed (a newer one is left). */
  clearTenantPause(clientId: number, pausedAt: string): Promise<void>;
  /**
   * The exactly-once gate, before the provider call: the client's quota counter raised below its limits, then one
   * transaction — the execution 1 → 2 (or 2 while `retry_pending`), unchanged since it was read, keeping what it
   * reserved (`claim`, see claimOf); the contact's day counter raised below its limit; the sent-email record (id
   * derived from the execution) with a queued log. Any condition failing leaves the execution as it was and the
   * counters as they were (`quota_*`: nothing written; otherwise the quota is given back).
   */
  claim(reservation: Reservation): Promise<ClaimOutcome>;
  /**
   * After the provider accepted: provider id, sent log, provider-id item, execution 2 → 3, contact figures. `moved`
   * when the execution had already left 2 (a status notification confirmed the send first): nothing written.
   */
  recordSent(reservation: Reservation, providerMessageId: string, at: string, logId: string): Promise<SettleOutcome>;
  /** A permanent refusal: execution 2 → 4, the e-mail failed with a log, the counters given back. */
  recordRejected(reservation: Reservation, reason: string, at: string, logId: string): Promise<void>;
  /**
   * Ends a claim without a send, for a new attempt: the execution (at 2, unchanged since read: status and
   * `updated_at`) stays 2 with `retry_pending`, `attempt` + 1 and the reason; the counters its `claim` raised are given
   * back and the claim's queued log removed (the next claim writes them again). False when it had moved.
   */
  releaseClaim(execution: ExecutionRecord, reason: string, at: string): Promise<boolean>;
  /**
   * SES refused the send for the account's limits (throttled, nothing sent): gives the claim back as releaseClaim
   * does (counters, queued log) but queues the execution again — 2 → 1 (at 2, unchanged since read), `scheduled_for`
   * the given instant, the reason, `throttled` + 1, and in the stuck index by its new due time. `attempt` stays: SES
   * took nothing. False when it had moved. `cause` `pause` (the client's SES tenant is paused): the same, but
   * `throttled` stays (it sizes the next throttle's backoff).
   */
  deferClaim(
    execution: ExecutionRecord,
    scheduledFor: string,
    reason: string,
    at: string,
    cause?: 'throttle' | 'pause',
  ): Promise<boolean>;
  /**
   * The send failed ambiguously: the execution (at 2, `updated_at` as read) keeps its claim and counters, is marked
   * `outcome_unknown` with the reason, and its lease starts again at `at`. False when it had moved.
   */
  markOutcomeUnknown(execution: ExecutionRecord, reason: string, at: string): Promise<boolean>;
  /**
   * Evidence that the provider accepted the execution's e-mail: the provider message id a status notification logged
   * on its sent e-mail (Send, Delivery, Bounce, … — any of them names the message SES accepted). One Query.
   */
  findEvidence(execution: ExecutionRecord): Promise<string | undefined>;
  /**
   * Completes a claimed execution from evidence, as recordSent would after the provider's answer: provider id on the
   * e-mail, provider-id item, execution 2 → 3 with the reason (conditioned on `updated_at` as read), contact figures.
   */
  confirmSent(
    execution: ExecutionRecord,
    providerMessageId: string,
    reason: string,
    at: string,
  ): Promise<SettleOutcome>;
}

/** The sent e-mail of a claimed execution: the one its claim created. */
export const claimedEmailIdOf = (execution: ExecutionRecord): string =>
  execution.claim?.sent_email_id ?? sentEmailIdOf(execution);
