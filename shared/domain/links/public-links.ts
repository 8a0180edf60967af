import { randomUUID } from 'node:crypto';
import type { Clock } from '../../ports.js';
import type { ContactStore } from '../contacts/contact-store.js';
import { SENT_STATUS, type SentEmailRecord } from '../sent-emails/sent-email-record.js';
import type { SentEmailStore } from '../sent-emails/sent-email-store.js';
import { verifyLinkToken, type LinkPurpose } from './link-token.js';

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
 * RFC 8058 one-click: the e-mail's contact is unsubscribed at once and the e-mail gets an `unsubscribed` log.
 * Repeating it changes nothing more. Returns the e-mail, or undefined for a bad token.
 */
export async function unsubscribeByLink(
  deps: { sentEmails: SentEmailStore; contacts: ContactStore; clock: Clock },
  secret: string,
  token: string,
): Promise<SentEmailRecord | undefined> {
  const email = await openLink(deps, secret, token, 'u');
  if (!email) return undefined;
  const at = deps.clock.now().toISOString();
  const contact = await deps.contacts.get(email.client_id, email.contact_id);
  if (contact?.is_subscribed) {
    await Promise.all([
      deps.contacts.updateSubscription(email.client_id, email.contact_id, {
        is_subscribed: false,
        unsubscribe_reason: LINK_UNSUBSCRIBE_REASON,
        at,
      }),
      deps.sentEmails.addLog(email.client_id, email.id, { id: randomUUID(), created_at: at, status: SENT_STATUS.unsubscribed }),
    ]);
  }
  return email;
}
