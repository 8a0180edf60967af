import type { ClientRecord } from '../clients/client-store.js';
import type { ContactRecord } from '../contacts/contact-store.js';
import type { SentEmailLogRecord, SentEmailRecord } from '../sent-emails/sent-email-record.js';
import type { SettingsRecord } from '../settings/settings-store.js';
import type { TemplateRecord } from '../templates/template-store.js';
import type { CustomizationRecord } from '../workflows/customization.js';
import type { ExecutionRecord } from './execution-record.js';

/** Everything a send reads besides the execution: one request. */
export interface SendContext {
  contact?: ContactRecord;
  settings?: SettingsRecord;
  client?: ClientRecord;
  customization?: CustomizationRecord;
  /** The execution's client template (absent for a system template or a deleted one). */
  template?: TemplateRecord;
  /** The contact's counter for the execution's local day: e-mails sent, and the executions waiting for a slot. */
  cap: DayCap;
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
export type ClaimOutcome = 'claimed' | 'quota_day' | 'quota_month' | 'contact_cap' | 'taken';

export interface DeliveryStore {
  load(execution: ExecutionRecord): Promise<SendContext>;
  /**
   * The exactly-once gate, one transaction before the provider call: the execution 1 → 2 (or 2 while
   * `retry_pending`), unchanged since it was read; the client's quota counter and the contact's day counter raised
   * below their limits; the sent-email record (id derived from the execution) with a queued log. Any condition
   * failing cancels it all: `quota` and `contact_cap` leave the execution as it was.
   */
  claim(reservation: Reservation): Promise<ClaimOutcome>;
  /** After the provider accepted: provider id, sent log, provider-id item, execution 2 → 3, contact figures. */
  recordSent(reservation: Reservation, providerMessageId: string, at: string, logId: string): Promise<void>;
  /** A permanent refusal: execution 2 → 4, the e-mail failed with a log, the counters given back. */
  recordRejected(reservation: Reservation, reason: string, at: string, logId: string): Promise<void>;
  /**
   * A transient failure, nothing left: the counters given back, the attempt's queued log removed (the retry's claim
   * writes it again), the execution stays 2 with `retry_pending`.
   */
  markRetry(reservation: Reservation, reason: string, at: string): Promise<void>;
}
