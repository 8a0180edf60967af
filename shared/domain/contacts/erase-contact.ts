import * as z from '../../validation/zod.js';
import { conflict, notFound } from '../../errors.js';
import type { Clock } from '../../platform.js';
import type { ContactRecord, ContactStore } from './contact-store.js';
import type { ContactRefValue } from './get-contact.js';

/** Why a contact was unsubscribed that makes its address a suppression marker when the contact is erased. */
const MARKER_REASONS = new Set(['hard_bounce', 'transient_bounces', 'complaint']);

/** Re-reads after a concurrent change of the contact (its e-mail or uid moved meanwhile), before answering 409 `state`. */
const MAX_ATTEMPTS = 3;

/** The keys of a contact's history, found through its gsi2 entries (keys.contactHistory). */
export interface ContactHistory {
  events: number[];
  executions: number[];
  sentEmails: string[];
  /** Stored webhook messages about the contact (their ids), kept 30 days for replay. */
  webhookMessages: string[];
  /** Its journey runs (their ids): those in flight end `contact_erased`, all lose the trigger event and key value. */
  runs?: number[];
}

/** What the scrubbing of a contact's history changed. */
export interface HistoryScrub {
  events: number;
  executions: number;
  executionsCancelled: number;
  sentEmails: number;
  logs: number;
  webhookMessages: number;
  webhookAttempts: number;
}

/**
 * The writes of an erasure (docs/decisions/0058-contact-erasure.md "Contact erasure"). Every step is idempotent: an erasure that stops
 * half-way is finished by sending the request again, as the contact itself is replaced last.
 */
export interface ErasureStore {
  /** Whether an erasure left its tombstone for this contact id. */
  wasErased(clientId: number, contactId: number): Promise<boolean>;
  /** The contact's events (once processed), executions and sent e-mails. */
  history(clientId: number, contactId: number): Promise<ContactHistory>;
  /**
   * Cancels the executions still queued (`contact_erased`) and strips every personal datum from the history,
   * keeping ids, statuses and times.
   */
  scrubHistory(clientId: number, email: string, history: ContactHistory, at: string): Promise<HistoryScrub>;
  /**
   * Replaces the contact by its tombstone and removes its locks in one transaction; the e-mail lock stays as a
   * suppression marker (its reason, no address) when `markerReason` is given. `changed` when the contact or its
   * locks changed since `contact` was read (nothing written).
   */
  replaceByTombstone(
    contact: ContactRecord,
    markerReason: string | undefined,
    at: string,
  ): Promise<'erased' | 'changed'>;
  /**
   * Removes what segments keep of the contact: its event counters (event times), its engagement with each journey
   * and broadcast, its segment state and its member entries (the segments' counts follow by the stream). Answers how
   * many items went.
   */
  dropSegmentData(clientId: number, contactId: number): Promise<number>;
}

/** `data` of `DELETE /client/contacts/{id}`: what was erased. */
export const ContactErasure = z
  .object({
    id: z.int().check(z.meta({ description: 'The erased contact' })),
    erased: z.literal(true),
    already_erased: z
      .boolean()
      .check(z.meta({ description: 'An earlier request erased it; nothing was left to erase (all counts 0)' })),
    contact: z
      .int()
      .check(
        z.gte(0),
        z.lte(1),
        z.meta({ description: 'Contact records removed, custom field values included (1, or 0 on a repeat)' }),
      ),
    locks: z.int().check(z.gte(0), z.meta({ description: 'E-mail and client_contact_id locks released' })),
    suppression_marker: z.boolean().check(
      z.meta({
        description:
          'This request left a hash of the address because it hard-bounced or complained: it cannot be added again (false on a repeat)',
      }),
    ),
    events: z
      .int()
      .check(
        z.gte(0),
        z.meta({ description: 'Events whose personal data (address, uid, payload, metadata) was removed' }),
      ),
    executions: z.int().check(z.gte(0), z.meta({ description: 'Executions whose event data was removed' })),
    executions_cancelled: z
      .int()
      .check(z.gte(0), z.meta({ description: 'Queued executions cancelled (reason `contact_erased`)' })),
    sent_emails: z
      .int()
      .check(z.gte(0), z.meta({ description: 'Sent e-mails whose address, subject and bodies were removed' })),
    logs: z
      .int()
      .check(z.gte(0), z.meta({ description: 'Sent-email logs whose ip, user agent, url or address were removed' })),
    webhook_messages: z.int().check(
      z.gte(0),
      z.meta({
        description:
          'Stored webhook messages about the contact reduced to ids, type, status and times (`data.erased: true`): a replay sends only that',
      }),
    ),
    webhook_attempts: z
      .int()
      .check(
        z.gte(0),
        z.meta({ description: 'Delivery attempts of those messages whose stored response body was removed' }),
      ),
    erased_at: z.nullable(z.string()).check(z.meta({ description: 'When it was erased (null on a repeat)' })),
  })
  .check(
    z.meta({ id: 'ContactErasure', description: 'What an erasure removed. Ids and statuses of the history stay.' }),
  );
export type ContactErasure = z.output<typeof ContactErasure>;

/** `meta` of the erasure: the DynamoDB requests it made (they grow with the contact's history). */
export const ContactErasureMeta = z.object({
  dynamodb: z
    .object({ requests: z.int().check(z.gte(0)), waves: z.int().check(z.gte(0)) })
    .check(z.meta({ description: 'DynamoDB requests the erasure made, in how many sequential waves' })),
});

const NO_HISTORY: ContactHistory = { events: [], executions: [], sentEmails: [], webhookMessages: [] };

const NOTHING = {
  events: 0,
  executions: 0,
  executionsCancelled: 0,
  sentEmails: 0,
  logs: 0,
  webhookMessages: 0,
  webhookAttempts: 0,
} satisfies HistoryScrub;

/**
 * `DELETE /client/contacts/{id}` (extra to SPEC.md, GDPR Art. 17): the contact, its locks and custom field values go;
 * its queued executions are cancelled; its segment memberships and event counters go; its events and sent e-mails keep ids and statuses but lose every personal
 * datum; its stored webhook messages keep only ids, type, status and times, and their attempts lose the receiver's
 * answer (docs/privacy.md lists every copy); a bounced or complained address stays as a hashed suppression marker. Repeatable: by id, an erased contact
 * answers 200 with zero counts (by e-mail it is 404: the address is no longer known).
 */
export async function eraseContact(
  deps: { clock: Clock; contacts: ContactStore; erasure: ErasureStore },
  clientId: number,
  ref: ContactRefValue,
): Promise<ContactErasure> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const contact = await readContact(deps, clientId, ref);
    if (contact === 'erased') return repeat((ref as { id: number }).id);
    const at = deps.clock.now().toISOString();
    // History first, the contact last: a failure half-way leaves the contact in place and the request repeatable.
    const history = await deps.erasure.history(clientId, contact.id);
    const scrub = await deps.erasure.scrubHistory(clientId, contact.email, history, at);
    const markerReason =
      contact.unsubscribe_reason && MARKER_REASONS.has(contact.unsubscribe_reason)
        ? contact.unsubscribe_reason
        : undefined;
    const outcome = await deps.erasure.replaceByTombstone(contact, markerReason, at);
    if (outcome === 'changed') continue;
    // A webhook fact or delivery in flight while the history was scrubbed may have stored a message or an attempt
    // since; with the tombstone written, the producer stores no more of them whole: one more pass over the outbox.
    // Segments: the contact's counters, state and member entries (it is gone, so no evaluation puts them back).
    const [late] = await Promise.all([
      deps.erasure.history(clientId, contact.id),
      deps.erasure.dropSegmentData(clientId, contact.id),
    ]);
    const outbox = await deps.erasure.scrubHistory(
      clientId,
      contact.email,
      { ...NO_HISTORY, webhookMessages: late.webhookMessages },
      at,
    );
    return {
      id: contact.id,
      erased: true,
      already_erased: false,
      contact: 1,
      locks: (markerReason ? 0 : 1) + (contact.client_contact_id ? 1 : 0),
      suppression_marker: markerReason !== undefined,
      events: scrub.events,
      executions: scrub.executions,
      executions_cancelled: scrub.executionsCancelled,
      sent_emails: scrub.sentEmails,
      logs: scrub.logs,
      webhook_messages: scrub.webhookMessages + outbox.webhookMessages,
      webhook_attempts: scrub.webhookAttempts + outbox.webhookAttempts,
      erased_at: at,
    };
  }
  throw conflict('state', 'id', 'The contact was changed concurrently; retry the request');
}

async function readContact(
  deps: { contacts: ContactStore; erasure: ErasureStore },
  clientId: number,
  ref: ContactRefValue,
): Promise<ContactRecord | 'erased'> {
  if ('id' in ref) {
    const contact = await deps.contacts.get(clientId, ref.id);
    if (contact) return contact;
    if (await deps.erasure.wasErased(clientId, ref.id)) return 'erased';
  } else if ('email' in ref) {
    const contact = await deps.contacts.getByEmail(clientId, ref.email);
    if (contact) return contact;
  }
  throw notFound('id', 'Contact not found');
}

const repeat = (id: number): ContactErasure => ({
  id,
  erased: true,
  already_erased: true,
  contact: 0,
  locks: 0,
  suppression_marker: false,
  events: NOTHING.events,
  executions: NOTHING.executions,
  executions_cancelled: NOTHING.executionsCancelled,
  sent_emails: NOTHING.sentEmails,
  logs: NOTHING.logs,
  webhook_messages: NOTHING.webhookMessages,
  webhook_attempts: NOTHING.webhookAttempts,
  erased_at: null,
});
