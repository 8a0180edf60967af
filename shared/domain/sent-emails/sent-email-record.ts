/** Sent-email (and log) status values (DESIGN.md §5). */
export const SENT_STATUS = {
  queued: 1,
  sent: 2,
  delivered: 3,
  opened: 4,
  clicked: 5,
  delivery_delayed: 6,
  bounced: 7,
  complained: 8,
  rejected: 9,
  failed: 10,
  unsubscribed: 11,
} as const;
export type SentStatus = (typeof SENT_STATUS)[keyof typeof SENT_STATUS];
export const SENT_STATUS_TEXT = Object.fromEntries(
  Object.entries(SENT_STATUS).map(([name, value]) => [value, name]),
) as Record<SentStatus, string>;

export interface SentEmailRecord {
  /** UUID derived from the execution id: the execution's one e-mail, whatever happens to its messages. */
  id: string;
  client_id: number;
  contact_id: number;
  execution_id: number;
  workflow_id: number;
  email_template_id: number;
  email_template_name: string;
  from_email: string;
  to_email: string;
  reply_to?: string;
  subject: string;
  html_body: string;
  text_body: string;
  browser_url: string;
  provider_message_id?: string;
  status: SentStatus;
  status_updated_at: string;
  /** The event whose processing created the execution (null for a test send); absent on e-mails sent before it was kept. */
  event_id?: number | null;
  /** The topic the e-mail was sent under: its one-click link leaves that topic only. */
  topic_id?: number;
  /** A journey's e-mail: its send step, and the split arms its run took (journeyPlaceOf its execution). */
  step_id?: string;
  arms?: Record<string, string>;
  /** A broadcast's e-mail: its broadcast and the variant it got (broadcastPlaceOf its execution). */
  broadcast_id?: number;
  variant?: number;
  /** In an A/B test's share: its variant's results are counted apart (`B<bid>#V<variant>`). */
  ab_test?: true;
  created_at: string;
}

export interface SentEmailLogRecord {
  id: string;
  created_at: string;
  status: SentStatus;
  provider_message_id?: string;
  url?: string;
  ip_address?: string;
  user_agent?: string;
  is_bot?: boolean;
  /** Which signal made it a machine event (bot-detection.ts), for opens and clicks. */
  bot_reason?: string;
  /** A bounce's kind: `hard` (permanent) or `soft` (transient or undetermined), for webhooks. */
  bounce_type?: 'hard' | 'soft';
  detail?: string;
}

/**
 * What a status log carries for the day counters (counter-facts.ts reads them from the change stream); no API answer
 * or webhook shows them.
 */
export interface CountedLogFields {
  /** The e-mail's workflow (0: sent before e-mails named theirs). */
  workflow_id?: number;
  /** A journey's e-mail: the send step and the split arms it counts on. */
  step_id?: string;
  arms?: Record<string, string>;
  /** A broadcast's e-mail: the broadcast whose totals it counts on, and its variant. */
  broadcast_id?: number;
  variant?: number;
  /** In an A/B test's share: its variant's results are counted apart (`B<bid>#V<variant>`). */
  ab_test?: true;
  /** This notification was the e-mail's first human open / click. */
  first_open?: true;
  first_click?: true;
  /** Why the notification unsubscribed the contact (`ses_unsubscribe`, `hard_bounce`, `complaint`, …). */
  suppression?: string;
  /** `link`: the contact unsubscribed through this e-mail's one-click link (the log of that unsubscribe). */
  unsubscribed_by?: 'link';
}
