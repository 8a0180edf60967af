import { SENT_STATUS, type SentStatus } from '../sent-emails/sent-email-record.js';

/**
 * How far an e-mail got, low to high. Notifications arrive out of order (a Delivery after a Click, a Send after the
 * Delivery), so the e-mail's status only ever moves up this ladder; every notification still gets its log.
 * Engagement climbs queued < sent < delivery_delayed < delivered < opened < clicked; an unsubscribe through the
 * e-mail ranks above engagement (the recipient acted on it); the terminal outcomes — failed < rejected < bounced <
 * complained — override everything before them (a bounce after an open-tracking pixel fired is still a bounce, and
 * a complaint is the strongest signal a recipient sends).
 */
export const STATUS_RANK: readonly SentStatus[] = [
  SENT_STATUS.queued,
  SENT_STATUS.sent,
  SENT_STATUS.delivery_delayed,
  SENT_STATUS.delivered,
  SENT_STATUS.opened,
  SENT_STATUS.clicked,
  SENT_STATUS.unsubscribed,
  SENT_STATUS.failed,
  SENT_STATUS.rejected,
  SENT_STATUS.bounced,
  SENT_STATUS.complained,
];

const rankOf = (status: SentStatus): number => STATUS_RANK.indexOf(status);

/** The e-mail's status once `incoming` is known: the higher-ranked of the two. */
export function nextEmailStatus(current: SentStatus, incoming: SentStatus): SentStatus {
  return rankOf(incoming) > rankOf(current) ? incoming : current;
}
