import * as z from '../../validation/zod.js';
import { AppError, conflict, invalidField, malformed } from '../../errors.js';
import type { Clock } from '../../platform.js';
import { applyContactPatch } from './bulk-merge.js';
import { parseContactRow } from './bulk-row.js';
import { ContactRowDocument } from './bulk-schemas.js';
import { UNSUBSCRIBED_AT_RULE } from './schemas.js';
import { documentedAs } from '../../validation/documented-as.js';
import {
  SUPPRESSED,
  SUPPRESSED_ADDRESS_ERROR,
  type ContactRecord,
  type ContactStore,
  type ContactWrites,
} from './contact-store.js';
import { toContactView, type ContactView } from './contact-view.js';
import type { TopicStore } from '../topics/topic-store.js';
import { findContact, type ContactRefValue } from './get-contact.js';

/** The body of the PATCH: any subset of the contact body's fields, validated by the import row's rules. */
export const ContactPatchBody = documentedAs(
  z.record(z.string(), z.unknown()),
  z.partial(ContactRowDocument).check(z.meta(UNSUBSCRIBED_AT_RULE)),
);

/** Re-reads after losing to a concurrent write of the same contact, before answering 409 `state`. */
const MAX_ATTEMPTS = 3;

/**
 * `PATCH /client/contacts/{id}` (extra to SPEC.md): a partial update with the contact body's rules — the rules of
 * an import row with `overwrite_blank_fields` (a field absent keeps its value, `""` or `null` clears it, custom
 * fields merge, is_subscribed false unsubscribes; resubscribing is `PATCH …/subscription`'s job). A new `email` or
 * `client_contact_id` moves its lock in the same transaction; one held by another contact is 409 `unique`. Nothing
 * is written when nothing changes.
 */
export async function updateContact(
  deps: { clock: Clock; contacts: ContactStore; contactWrites: ContactWrites; topics: TopicStore },
  clientId: number,
  ref: ContactRefValue,
  body: Record<string, unknown>,
): Promise<{ contact: ContactView; changed: boolean }> {
  // Read beside the contact: the answer shows the contact's topic choices.
  const topicSet = deps.topics.load(clientId);
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const before = await findContact(deps, clientId, ref);
    const parsed = parseContactRow({ ...body, email: body['email'] ?? before.email }, '');
    if (!parsed.ok) throw new AppError(422, parsed.errors, 'Validation failed');
    if (body['email'] === null || body['email'] === '')
      throw malformed('email', 'A contact always has an e-mail: give a new one or leave it out');
    const now = deps.clock.now();
    const names = Object.keys(parsed.patch.values.custom_fields ?? {});
    const customFieldIds =
      names.length > 0 ? await deps.contacts.customFieldIds(clientId, names) : new Map<string, number>();
    const after: ContactRecord = {
      ...applyContactPatch(before, parsed.patch, before.id, {
        overwriteBlankFields: true,
        now: now.toISOString(),
        clientId,
        createdBy: before.created_by,
        customFieldIds,
        defaultSource: before.source,
      }),
      email: parsed.patch.values.email,
    };
    if (after.email !== before.email) after.updated_at = now.toISOString();
    if (after.updated_at === before.updated_at)
      return { contact: toContactView(before, now, (await topicSet).topics), changed: false };
    const [outcome] = await deps.contactWrites.writeMany([{ kind: 'update', before, after }], { isolated: true });
    if (outcome?.status === 'written')
      return { contact: toContactView(after, now, (await topicSet).topics), changed: true };
    // A write the store refused as given is the caller's to change (a 422), one that may land later a 500 to retry.
    if (outcome?.status === 'error' && !outcome.retryable) {
      throw invalidField('format', 'body', 'The store cannot hold this contact as given; nothing was changed');
    }
    if (outcome?.status === 'error') throw new Error(outcome.message);
    // A conflict: a value another contact holds, or this contact changed since it was read (read again).
    await assertFree(deps, clientId, before, after);
  }
  throw conflict('state', 'id', 'The contact was changed concurrently; retry the request');
}

async function assertFree(
  deps: { contacts: ContactStore },
  clientId: number,
  before: ContactRecord,
  after: ContactRecord,
) {
  if (after.email !== before.email) {
    const owner = (await deps.contacts.findIdsByEmail(clientId, [after.email])).get(after.email);
    if (owner === SUPPRESSED) throw conflict('suppressed', 'email', SUPPRESSED_ADDRESS_ERROR);
    if (owner !== undefined && owner !== before.id)
      throw conflict('unique', 'email', 'A contact with this e-mail already exists');
  }
  const uid = after.client_contact_id;
  if (uid && uid !== before.client_contact_id) {
    const owner = (await deps.contacts.findIdsByUid(clientId, [uid])).get(uid);
    if (owner !== undefined && owner !== before.id)
      throw conflict('unique', 'client_contact_id', 'A contact with this client_contact_id already exists');
  }
}
