import { notFound } from '../../errors.js';
import type { ContactRecord, ContactStore } from './contact-store.js';

export type ContactRefValue = { id: number } | { email: string };

/** The client's contact by id or e-mail; another client's contact is answered exactly like a missing one. */
export async function findContact(
  deps: { contacts: ContactStore },
  clientId: number,
  ref: ContactRefValue,
): Promise<ContactRecord> {
  const contact =
    'id' in ref ? await deps.contacts.get(clientId, ref.id) : await deps.contacts.getByEmail(clientId, ref.email);
  if (!contact) throw notFound('id', 'Contact not found');
  return contact;
}
