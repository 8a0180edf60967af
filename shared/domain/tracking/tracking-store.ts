import { broadcastPlaceOf, journeyPlaceOf } from '../executions/execution-record.js';
import type { CountedLogFields, SentEmailLogRecord } from '../sent-emails/sent-email-record.js';

/** The sent e-mail a provider message belongs to (the `MSG#<id>` item, or the e-mail its tags name). */
export interface TrackedMessage {
  client_id: number;
  sent_email_id: string;
  contact_id: number;
  /** The workflow that sent it (its day counters' row); absent on messages recorded before workflows were. */
  workflow_id?: number;
  /** A journey's e-mail: its send step and the split arms its run took (the log's counters name them). */
  step_id?: string;
  arms?: Record<string, string>;
  /** A broadcast's e-mail: its broadcast and variant (the log's counters count on the broadcast's totals too). */
  broadcast_id?: number;
  variant?: number;
  /** In an A/B test's share: its variant's results are counted apart (`B<bid>#V<variant>`). */
  ab_test?: true;
  /**
   * Set when the e-mail was found through its tags and has no provider id recorded yet: its execution may still be
   * waiting for this very evidence (a worker lost after SES accepted, or an ambiguous send).
   */
  unconfirmed?: boolean;
  /**
   * The zone the e-mail's send time was planned in (contact → client → UTC), recorded with the provider id: a human
   * open's local hour is read in it. Absent on messages found through their tags.
   */
  send_zone?: string;
}

/** Why a status notification unsubscribed the contact (its `unsubscribe_reason`). */
export type SuppressionReason = 'hard_bounce' | 'complaint' | 'transient_bounces' | 'ses_unsubscribe';

/** What one notification changes on the contact (nothing for a bot, a Send or a Delivery). */
export interface ContactTracking {
  /** A human open or click: `last_activity_at`. */
  lastActivityAt?: string;
  /** A human open (or a click on an e-mail whose open was not seen): `last_email_opened_at`. */
  lastOpenedAt?: string;
  /** A human click: `last_email_clicked_at` (segments' "clicked within N days"). */
  lastClickedAt?: string;
  /** The e-mail's first human open: `ADD total_emails_opened 1`. */
  countOpen?: boolean;
  /** The e-mail's first human click: `ADD total_emails_clicked 1`. */
  countClick?: boolean;
  /** A human open: its local hour (0–23, in the message's `send_zone`), `ADD` 1 to that bucket of the contact's histogram. */
  openHour?: number;
  /** Unsubscribes the contact (a hard bounce, a complaint, repeated transient bounces, SES's unsubscribe). */
  suppress?: { reason: SuppressionReason; at: string };
  /** The contact's transient bounce times within the window, this one included (kept to count them). */
  transientBounces?: string[];
}

export interface TrackingWrite {
  message: TrackedMessage;
  /** Its id is the notification's dedupe key and `created_at` the event's own time: the same notification is one item. */
  log: SentEmailLogRecord;
  contact?: ContactTracking;
  /** The client's deliverability counters of this UTC day (yyyy-mm-dd). */
  deliverability?: { day: string; bounce?: boolean; complaint?: boolean };
}

/** One UTC day of a client's sending: e-mails sent (the quota counters) and permanent bounces and complaints. */
export interface DeliverabilityDay {
  day: string;
  sends: number;
  bounces: number;
  complaints: number;
}

export interface TrackingStore {
  /** The provider message id's item (one consistent GetItem). */
  findMessage(providerMessageId: string): Promise<TrackedMessage | undefined>;
  /**
   * The e-mail the message's tags name, when its record exists and carries this provider id or none yet (a
   * notification may overtake the write that records the id after SES accepted the e-mail).
   */
  findTaggedMessage(
    clientId: number,
    sentEmailId: string,
    providerMessageId: string,
  ): Promise<TrackedMessage | undefined>;
  /** The e-mail's logs, oldest first (one Query on its log items). */
  logs(clientId: number, sentEmailId: string): Promise<SentEmailLogRecord[]>;
  /** The contact's remembered transient bounce times; undefined when the contact is gone. */
  transientBounces(clientId: number, contactId: number): Promise<string[] | undefined>;
  /**
   * One transaction: the log (only if new), the contact (only if it still exists) and the deliverability counter.
   * `duplicate` when the log was there already: nothing was changed.
   */
  record(write: TrackingWrite): Promise<'recorded' | 'duplicate'>;
  /**
   * Adds one human open at local hour `hour` to the client's aggregate open-hour histogram (one UpdateItem `ADD`, outside
   * the notification's transaction: docs/decisions/0081-send-time-optimisation.md "Send-time optimisation").
   */
  addClientOpenHour(clientId: number, hour: number): Promise<void>;
  /** The client's deliverability days from `fromDay` to `toDay` inclusive (UTC yyyy-mm-dd), days without sends included as zeros. */
  deliverabilityDays(clientId: number, fromDay: string, toDay: string): Promise<DeliverabilityDay[]>;
}

/**
 * The log as stored, with what the day counters read from it (counter-facts.ts): the e-mail's workflow (and a
 * journey's step and split arms), whether this
 * notification took the e-mail's first human open / click (only with the marker this attempt writes, so an e-mail is
 * counted once however its notifications race), and the suppression it caused.
 */
export function countedLogOf(
  write: TrackingWrite,
  markers: readonly ('open' | 'click')[],
): SentEmailLogRecord & CountedLogFields {
  const suppression = write.contact?.suppress?.reason;
  return {
    ...write.log,
    workflow_id: write.message.workflow_id ?? 0,
    ...journeyPlaceOf(write.message),
    ...broadcastPlaceOf(write.message),
    ...(markers.includes('open') ? { first_open: true } : {}),
    ...(markers.includes('click') ? { first_click: true } : {}),
    ...(suppression ? { suppression } : {}),
  };
}
