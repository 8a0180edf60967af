import { notFound } from '../../errors.js';
import type { SentEmailStore } from './sent-email-store.js';
import { toSentEmailView } from './sent-email-view.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** GET /client/sent-emails/{id}: another client's e-mail, or anything not a UUID, is a 404 (no store call). */
export async function getSentEmail(deps: { sentEmails: SentEmailStore }, clientId: number, id: string) {
  const found = UUID.test(id) ? await deps.sentEmails.getWithLogs(clientId, id.toLowerCase()) : undefined;
  if (!found) throw notFound('id', 'Sent e-mail not found');
  return toSentEmailView(found.email, found.logs);
}

/**
 * GET /client/sent-emails/{id}/html: the e-mail's HTML as sent (empty once erased). One GetItem, no logs; another
 * client's e-mail, or anything not a UUID, is a 404 like the JSON route's.
 */
export async function getSentEmailHtml(
  deps: { sentEmails: SentEmailStore },
  clientId: number,
  id: string,
): Promise<string> {
  const email = UUID.test(id) ? await deps.sentEmails.get(clientId, id.toLowerCase()) : undefined;
  if (!email) throw notFound('id', 'Sent e-mail not found');
  return email.html_body;
}
