import { conflict } from '../../errors.js';
import type { Clock, Ids } from '../../platform.js';
import { buildContact, subscriptionOf } from './build-contact.js';
import {
  SUPPRESSED_ADDRESS_ERROR,
  SuppressedAddress,
  UniqueViolation,
  type ContactRecord,
  type ContactStore,
} from './contact-store.js';
import { toContactView, type ContactView } from './contact-view.js';
import type { ContactBody } from './schemas.js';
import type { TopicStore } from '../topics/topic-store.js';

interface Deps {
  clock: Clock;
  ids: Ids;
  contacts: ContactStore;
}

/** POST /client/contacts: createContactRecord, answered with the client's topics, read beside it. */
export async function createContact(
  deps: Deps & { topics: TopicStore },
  clientId: number,
  body: ContactBody,
  createdBy: number,
): Promise<ContactView> {
  const [contact, topics] = await Promise.all([
    createContactRecord(deps, clientId, body, createdBy),
    deps.topics.load(clientId),
  ]);
  return toContactView(contact, new Date(contact.created_at), topics.topics);
}

/**
 * Creates one contact. The e-mail (and client_contact_id) uniqueness is enforced by the store's transaction,
 * so of two concurrent creates of one address exactly one succeeds and the other is a 409.
 */
export async function createContactRecord(
  deps: Deps,
  clientId: number,
  body: ContactBody,
  createdBy: number,
): Promise<ContactRecord> {
  const now = deps.clock.now().toISOString();
  subscriptionOf(body, now); // contradictions are rejected before anything is written
  const names = Object.entries(body.custom_fields ?? {})
    .filter(([, v]) => v !== null && v !== '')
    .map(([name]) => name);
  const [id, customFieldIds] = await Promise.all([
    deps.ids.next('contact'),
    names.length > 0 ? deps.contacts.customFieldIds(clientId, names) : Promise.resolve(new Map<string, number>()),
  ]);
  const contact = buildContact({ body, id, clientId, createdBy, now, customFieldIds });
  try {
    await deps.contacts.create(contact);
  } catch (error) {
    if (error instanceof SuppressedAddress) throw conflict('suppressed', 'email', SUPPRESSED_ADDRESS_ERROR);
    if (error instanceof UniqueViolation) {
      throw conflict(
        'unique',
        error.field,
        `A contact with this ${error.field === 'email' ? 'e-mail' : 'client_contact_id'} already exists`,
      );
    }
    throw error;
  }
  return contact;
}
