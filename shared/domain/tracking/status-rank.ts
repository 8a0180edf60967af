import { SENT_STATUS, type SentStatus } from '../sent-emails/sent-email-record.js';

/**
 * How far an e-mail got, low to high: its status is the highest-ranked status any of its notifications carried.
 *
 * SNS and SQS deliver at least once and in any order — a Delivery after the Click, the Send after the Delivery, a
 * late DeliveryDelay after the Delivery — so the status only ever moves up this ladder, and the result does not
 * depend on the order the notifications arrived in; every notification still gets its own log.
 * - Progress: queued < sent < delivery_delayed < delivered < opened < clicked. A delay is below the delivery (a
 *   delivery ends the delay; a delay reported late changes nothing), a click implies the open.
 * - unsubscribed ranks above engagement: the recipient read the e-mail and acted on it.
 * - Terminal outcomes override everything before them: failed < rejected < bounced < complained. A bounce after an
 *   open pixel fired (a scanner, a proxy) is still a bounce; a complaint is the strongest signal a recipient sends,
 *   and it overrides a bounce because it comes from the person, the bounce from a server.
 * `STATUS_RANK` is exhaustive over `SENT_STATUS`: a new status does not compile until it is ranked here.
 */
export const STATUS_RANK = {
  [SENT_STATUS.queued]: 0,
  [SENT_STATUS.sent]: 1,
  [SENT_STATUS.delivery_delayed]: 2,
  [SENT_STATUS.delivered]: 3,
  [SENT_STATUS.opened]: 4,
  [SENT_STATUS.clicked]: 5,
  [SENT_STATUS.unsubscribed]: 6,
  [SENT_STATUS.failed]: 7,
  [SENT_STATUS.rejected]: 8,
  [SENT_STATUS.bounced]: 9,
  [SENT_STATUS.complained]: 10,
} as const satisfies Record<SentStatus, number>;

/** The statuses low to high, as `STATUS_RANK` orders them. */
export const STATUS_LADDER: readonly SentStatus[] = (Object.keys(STATUS_RANK).map(Number) as SentStatus[]).sort(
  (a, b) => STATUS_RANK[a] - STATUS_RANK[b],
);

/** The e-mail's status once `incoming` is known: the higher-ranked of the two, so it never moves backwards. */
export function nextEmailStatus(current: SentStatus, incoming: SentStatus): SentStatus {
  return STATUS_RANK[incoming] > STATUS_RANK[current] ? incoming : current;
}
