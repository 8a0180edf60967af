import type { ClientStore } from '../clients/client-store.js';
import type { Clock, Queue } from '../../platform.js';
import { SENT_STATUS, type SentEmailLogRecord } from '../sent-emails/sent-email-record.js';
import { classifyEngagement } from './bot-detection.js';
import { guardDeliverability } from './deliverability-guard.js';
import { localOpenHour } from './open-hours.js';
import { shouldSuppressAfterTransient, TRANSIENT_WINDOW_DAYS } from './deliverability.js';
import { parseSesNotification, type SesStatusEvent } from './ses-notification.js';
import type { ContactTracking, TrackedMessage, TrackingStore, TrackingWrite } from './tracking-store.js';
import { SYSTEM_MAIL_TAG } from '../system-mail/system-mail.js';

export interface TrackingDeps {
  tracking: TrackingStore;
  clients: ClientStore;
  clock: Clock;
  /** Wakes an execution that waits for this evidence (workflow queue); absent where none can wait (tests). */
  queue?: Queue;
}

export type TrackOutcome =
  /** Not an SES status notification (e.g. an SNS subscription confirmation): acknowledged. */
  | { kind: 'ignored'; reason: string }
  /** A message this service did not send (or no longer knows): acknowledged and counted, never retried. */
  | { kind: 'unknown_message'; provider_message_id: string }
  /**
   * A notification of the service's own mail (sign-in links, invitations, notices: its own configuration set, tagged
   * `kind: system`): no sent e-mail of a client; the caller counts its bounces and complaints.
   */
  | { kind: 'system_mail'; event: SesStatusEvent['kind'] }
  /** The same notification again (SNS and SQS deliver at least once): nothing changed. */
  | { kind: 'duplicate' }
  | { kind: 'recorded'; client_id: number; sent_email_id: string; status: number; is_bot: boolean; paused: boolean };

/**
 * One SES status notification → one log item on its sent e-mail, and what it means for the contact (DESIGN.md §5,
 * with bot detection): human opens and clicks raise the figures, a permanent bounce, a complaint, repeated transient bounces or
 * an SES-managed unsubscribe unsubscribe it, and a permanent bounce or complaint feeds the client's deliverability
 * guard. The e-mail's status is not written here: it is the highest-ranked status of its logs (status-rank.ts), so
 * notifications may arrive in any order. Requests for a known message: GetItem `MSG#`, (opens, clicks: a Query of
 * the e-mail's logs; transient bounces: the contact's bounce times), one TransactWriteItems.
 */
export async function trackNotification(deps: TrackingDeps, body: unknown): Promise<TrackOutcome> {
  const parsed = parseSesNotification(body);
  if (!parsed.ok) return { kind: 'ignored', reason: parsed.reason };
  const event = parsed.event;
  if (event.tags['kind'] === SYSTEM_MAIL_TAG) return { kind: 'system_mail', event: event.kind };
  const message = await locate(deps.tracking, event);
  if (!message) return { kind: 'unknown_message', provider_message_id: event.messageId };

  const now = deps.clock.now();
  const write = await assess(deps.tracking, message, event, now);
  if ((await deps.tracking.record(write)) === 'duplicate') return { kind: 'duplicate' };
  await wakeWaitingExecution(deps, message, event);
  // The client's aggregate follows its contacts' histograms: a hot counter, so outside the transaction (docs/decisions/0081-send-time-optimisation.md).
  if (write.contact?.openHour !== undefined)
    await deps.tracking.addClientOpenHour(message.client_id, write.contact.openHour);
  const paused = write.deliverability ? await guardDeliverability(deps, message.client_id, now) : false;
  return {
    kind: 'recorded',
    client_id: message.client_id,
    sent_email_id: message.sent_email_id,
    status: write.log.status,
    is_bot: write.log.is_bot === true,
    paused,
  };
}

/**
 * The provider id's item first (DESIGN.md §4). A notification can overtake the write that records the id right after
 * SES accepted the e-mail; the tags every send carries (client, execution, sent e-mail) then name it.
 */
async function locate(tracking: TrackingStore, event: SesStatusEvent): Promise<TrackedMessage | undefined> {
  const found = await tracking.findMessage(event.messageId);
  if (found) return found;
  const clientId = Number(event.tags['client_id']);
  const sentEmailId = event.tags['sent_email_id'];
  if (!Number.isSafeInteger(clientId) || clientId <= 0 || !sentEmailId || !UUID.test(sentEmailId)) return undefined;
  return tracking.findTaggedMessage(clientId, sentEmailId, event.messageId);
}

/**
 * An e-mail SES accepted whose provider id was never recorded: its execution is still claimed — its worker died after
 * the send, or the send's answer was lost — and waits for its lease to end. This notification is the evidence it
 * waits for, so the execution is looked at now (settle-claim.ts completes it). One SQS send, only on this path.
 */
async function wakeWaitingExecution(deps: TrackingDeps, message: TrackedMessage, event: SesStatusEvent): Promise<void> {
  if (!message.unconfirmed || !deps.queue) return;
  const executionId = Number(event.tags['execution_id']);
  if (!Number.isSafeInteger(executionId) || executionId <= 0) return;
  await deps.queue.send('workflow', { client_id: message.client_id, execution_id: executionId });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function assess(
  tracking: TrackingStore,
  message: TrackedMessage,
  event: SesStatusEvent,
  now: Date,
): Promise<TrackingWrite> {
  const log: SentEmailLogRecord = {
    id: event.dedupeKey,
    created_at: event.occurredAt,
    status: event.status,
    provider_message_id: event.messageId,
    ...(event.statusText ? { detail: event.statusText } : {}),
    ...(event.bounce ? { bounce_type: event.bounce.permanent ? ('hard' as const) : ('soft' as const) } : {}),
  };
  const write: TrackingWrite = { message, log };

  if (event.kind === 'open' || event.kind === 'click') {
    const history = await tracking.logs(message.client_id, message.sent_email_id);
    const verdict = classifyEngagement({
      kind: event.kind,
      userAgent: event.userAgent,
      ipAddress: event.ipAddress,
      url: event.url,
      occurredAt: event.occurredAt,
      deliveredAt: history.find((l) => l.status === SENT_STATUS.delivered)?.created_at,
      sentAt: history.find((l) => l.status === SENT_STATUS.sent)?.created_at,
      sesBotFlag: event.sesBotFlag,
      otherClicks: history
        .filter((l) => l.status === SENT_STATUS.clicked)
        .map((l) => ({ occurredAt: l.created_at, url: l.url })),
    });
    Object.assign(log, {
      ...(event.url ? { url: event.url } : {}),
      ...(event.ipAddress ? { ip_address: event.ipAddress } : {}),
      ...(event.userAgent ? { user_agent: event.userAgent } : {}),
      is_bot: verdict.is_bot,
      ...(verdict.reason ? { bot_reason: verdict.reason } : {}),
    });
    if (!verdict.is_bot) write.contact = humanEngagement(event, history, message.send_zone);
    return write;
  }

  if (event.kind === 'bounce' && event.bounce?.permanent) {
    write.contact = { suppress: { reason: 'hard_bounce', at: event.occurredAt } };
    // SES leaves bounces from the account's suppression list out of the sender's bounce rate; so does the guard.
    if (!event.bounce.suppressedByAccount) write.deliverability = { day: now.toISOString().slice(0, 10), bounce: true };
    return write;
  }
  if (event.kind === 'bounce') {
    const earlier = await tracking.transientBounces(message.client_id, message.contact_id);
    if (earlier === undefined) return write;
    const windowStart = now.getTime() - TRANSIENT_WINDOW_DAYS * 86_400_000;
    const times = [...earlier.filter((t) => Date.parse(t) >= windowStart && t !== event.occurredAt), event.occurredAt]
      .sort()
      .slice(-10);
    write.contact = { transientBounces: times };
    if (shouldSuppressAfterTransient(times, now))
      write.contact.suppress = { reason: 'transient_bounces', at: event.occurredAt };
    return write;
  }
  if (event.kind === 'complaint') {
    write.contact = { suppress: { reason: 'complaint', at: event.occurredAt } };
    write.deliverability = { day: now.toISOString().slice(0, 10), complaint: true };
    return write;
  }
  // An SES-managed unsubscribe (the recipient left every topic) unsubscribes the contact; a preference change does not.
  if (event.kind === 'subscription' && event.unsubscribedAll)
    write.contact = { suppress: { reason: 'ses_unsubscribe', at: event.occurredAt } };
  return write;
}

/**
 * The contact's figures count e-mails, not events: the first human open of an e-mail raises `total_emails_opened`,
 * its first human click `total_emails_clicked` — and a click on an e-mail whose open was never seen (images off)
 * counts as its open too. Every human open or click moves `last_activity_at` (opens: `last_email_opened_at`, clicks:
 * `last_email_clicked_at`). The
 * store counts each e-mail once even when two of its notifications ask at the same instant (a marker per e-mail).
 * Every human open (not only the first) also counts in the contact's open-hour histogram, at its local hour in the
 * zone the e-mail was planned in; a message without a recorded zone counts in none.
 */
function humanEngagement(
  event: SesStatusEvent,
  history: SentEmailLogRecord[],
  zone: string | undefined,
): ContactTracking {
  const human = history.filter((l) => l.is_bot !== true);
  const opened = human.some((l) => l.status === SENT_STATUS.opened || l.status === SENT_STATUS.clicked);
  const clicked = human.some((l) => l.status === SENT_STATUS.clicked);
  const at = event.occurredAt;
  if (event.kind === 'open') {
    const openHour = zone ? localOpenHour(at, zone) : undefined;
    return {
      lastActivityAt: at,
      lastOpenedAt: at,
      countOpen: !opened,
      ...(openHour !== undefined ? { openHour } : {}),
    };
  }
  return {
    lastActivityAt: at,
    lastClickedAt: at,
    countClick: !clicked,
    ...(opened ? {} : { countOpen: true, lastOpenedAt: at }),
  };
}
