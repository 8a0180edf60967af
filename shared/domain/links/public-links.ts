import type { Clock } from '../../platform.js';
import type { ContactStore } from '../contacts/contact-store.js';
import { SENT_STATUS, type SentEmailLogRecord, type SentEmailRecord } from '../sent-emails/sent-email-record.js';
import type { SentEmailStore } from '../sent-emails/sent-email-store.js';
import { verifyLinkToken, type LinkPurpose } from './link-token.js';
import type { SubscriptionState, UnsubscribeStore } from './unsubscribe-store.js';

/** Why a one-click unsubscribe leaves the contact unsubscribed (its `unsubscribe_reason`). */
export const LINK_UNSUBSCRIBE_REASON = 'unsubscribe_link';

/** The sent e-mail a signed link points at; undefined for a tampered, foreign or unknown token (→ 404). */
export async function openLink(
  deps: { sentEmails: SentEmailStore },
  secret: string,
  token: string,
  purpose: LinkPurpose,
): Promise<SentEmailRecord | undefined> {
  const payload = verifyLinkToken(secret, token, purpose);
  if (!payload) return undefined;
  return deps.sentEmails.get(payload.clientId, payload.sentEmailId);
}

/**
 * The fixed id of a one-click unsubscribe's `unsubscribed` log. With the log's time it is the log's key, so one
 * unsubscribe is one log item however often its POST arrives.
 */
export const LINK_UNSUBSCRIBE_LOG_ID = 'unsubscribe-link';

/**
 * RFC 8058 one-click: the e-mail's contact is unsubscribed and the e-mail gets an `unsubscribed` log, in one
 * transaction. A contact already unsubscribed (by a link, a bounce, …) keeps its reason; the e-mail still gets its
 * log if it has none (the repair of a POST that an older two-write version left half done). With both in place
 * nothing is written. Requests: the e-mail with its logs (one Query), the contact (one GetItem), then one transaction
 * (first time), one PutItem (repair) or nothing. Returns the e-mail, or undefined for a bad token.
 */
export async function unsubscribeByLink(
  deps: { sentEmails: SentEmailStore; contacts: ContactStore; unsubscribe: UnsubscribeStore; clock: Clock },
  secret: string,
  token: string,
): Promise<SentEmailRecord | undefined> {
  const payload = verifyLinkToken(secret, token, 'u');
  if (!payload) return undefined;
  const found = await deps.sentEmails.getWithLogs(payload.clientId, payload.sentEmailId);
  if (!found) return undefined;
  const { email, logs } = found;
  const at = deps.clock.now().toISOString();
  if (email.topic_id !== undefined) return leaveTopicByLink(deps, email, logs, email.topic_id, at);
  let contact: SubscriptionState | undefined = await deps.contacts.get(email.client_id, email.contact_id);
  if (contact?.is_subscribed) {
    const outcome = await deps.unsubscribe.unsubscribe({
      clientId: email.client_id,
      contactId: email.contact_id,
      sentEmailId: email.id,
      workflowId: email.workflow_id,
      ...(email.broadcast_id !== undefined ? { broadcastId: email.broadcast_id } : {}),
      reason: LINK_UNSUBSCRIBE_REASON,
      log: unsubscribedLog(at),
    });
    if (outcome.status === 'unsubscribed') return email;
    // Unsubscribed (or erased) since it was read: decide on the state the write found.
    contact = outcome.contact;
  }
  if (contact && !contact.is_subscribed && !logs.some((log) => log.status === SENT_STATUS.unsubscribed)) {
    await deps.sentEmails.addLog(email.client_id, email.id, unsubscribedLog(repairedLogTime(email, contact, at)));
  }
  return email;
}

/**
 * The one-click link of a topic's e-mail leaves that topic only: the contact's `topic_<id>` false and
 * the e-mail's `unsubscribed` log in one transaction (no read of the contact: the write's condition decides). A contact
 * that had left the topic already gets only a missing log (a repair, as above). Requests: the Query, then one
 * transaction, one PutItem or nothing.
 */
async function leaveTopicByLink(
  deps: { sentEmails: SentEmailStore; unsubscribe: UnsubscribeStore },
  email: SentEmailRecord,
  logs: readonly SentEmailLogRecord[],
  topicId: number,
  at: string,
): Promise<SentEmailRecord> {
  const write = {
    clientId: email.client_id,
    contactId: email.contact_id,
    sentEmailId: email.id,
    workflowId: email.workflow_id,
    ...(email.broadcast_id !== undefined ? { broadcastId: email.broadcast_id } : {}),
    topicId,
  };
  const outcome = await deps.unsubscribe.leaveTopic({ ...write, log: unsubscribedLog(at) });
  if (outcome === 'not_in_topic' && !logs.some((log) => log.status === SENT_STATUS.unsubscribed)) {
    await deps.sentEmails.addLog(email.client_id, email.id, unsubscribedLog(at));
  }
  return email;
}

const unsubscribedLog = (at: string): SentEmailLogRecord => ({
  id: LINK_UNSUBSCRIBE_LOG_ID,
  created_at: at,
  status: SENT_STATUS.unsubscribed,
});

/**
 * The time of a repaired log. A contact a link unsubscribed after this e-mail was created keeps that time: it is when
 * the first POST unsubscribed it (and a concurrent first POST's log has the same key). Otherwise — another reason, or
 * a contact unsubscribed before this e-mail existed — the link is used now.
 */
function repairedLogTime(email: SentEmailRecord, contact: SubscriptionState, now: string): string {
  const since = contact.unsubscribed_at;
  const byLink = contact.unsubscribe_reason === LINK_UNSUBSCRIBE_REASON && since !== undefined;
  return byLink && Date.parse(since) >= Date.parse(email.created_at) ? since : now;
}
