import { EXECUTION_STATUS } from '../../executions/execution-record.js';
import type { AudienceCandidate, AudiencePage } from '../recipient-store.js';

/** A parent broadcast's recipient as its listing holds it (the execution's fields a resend reads). */
export interface ListedRecipient {
  contact_id: number;
  status: number;
  sent_email_id?: string;
  send_zone?: string;
  template_id: number;
}

/**
 * One page of a parent's recipient listing (in contact-id order, a contact's executions together: a retried one has
 * two) cut at a contact boundary: when the read stopped at its limit, the last contact's entries may go on in the next
 * read, so that contact is left for the next page (whose cursor starts after the contact before it). Returns the
 * page's contacts with their entries, the cursor and whether the shard ends here.
 */
export function listingPageOf(
  rows: readonly ListedRecipient[],
  truncated: boolean,
): { contacts: ListedRecipient[][]; last?: number; end: boolean } {
  const contacts: ListedRecipient[][] = [];
  for (const row of rows) {
    const group = contacts.at(-1);
    if (group && group[0]!.contact_id === row.contact_id) group.push(row);
    else contacts.push([row]);
  }
  // A single contact filling a whole read is taken whole (a contact never has that many executions in one broadcast).
  if (truncated && contacts.length > 1) contacts.pop();
  const last = contacts.at(-1)?.[0]?.contact_id;
  return { contacts, ...(last !== undefined ? { last } : {}), end: !truncated };
}

/** The sent e-mails whose human-open markers a page must read: those of its completed recipients. */
export const sentEmailsOf = (contacts: readonly ListedRecipient[][]): string[] =>
  contacts.flatMap((entries) =>
    entries.flatMap((e) =>
      e.status === EXECUTION_STATUS.completed && e.sent_email_id !== undefined ? [e.sent_email_id] : [],
    ),
  );

/**
 * A resend's candidates among a page's contacts: each whose e-mail was sent (an execution completed) and none of whose
 * sent e-mails was opened by a person (`opened`: the e-mails carrying the counted-open marker, which only a human open
 * writes — privacy proxies and scanners never do). A contact never sent (skipped, failed, cancelled) is not resent.
 */
export function nonOpenersOf(
  page: { contacts: ListedRecipient[][]; last?: number; end: boolean },
  opened: ReadonlySet<string>,
): AudiencePage {
  const candidates: AudienceCandidate[] = [];
  for (const entries of page.contacts) {
    const sent = entries.filter((e) => e.status === EXECUTION_STATUS.completed && e.sent_email_id !== undefined);
    if (sent.length === 0 || sent.some((e) => opened.has(e.sent_email_id!))) continue;
    const latest = sent.at(-1)!;
    candidates.push({
      contact_id: latest.contact_id,
      ...(latest.send_zone ? { zone: latest.send_zone } : {}),
      ...(latest.template_id > 0 ? { template_id: latest.template_id } : {}),
    });
  }
  return { candidates, ...(page.last !== undefined ? { last: page.last } : {}), end: page.end };
}
