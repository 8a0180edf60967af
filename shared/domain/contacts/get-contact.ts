import { notFound } from '../../errors.js';
import type { ContactRecord, ContactStore } from './contact-store.js';

export type ContactRefValue = { id: number } | { email: string } | { none: true };

/** The client's contact by id or e-mail; another client's contact is answered exactly like a missing one. */
export async function findContact(
  deps: { contacts: ContactStore },
  clientId: number,
  ref: ContactRefValue,
): Promise<ContactRecord> {
  const contact =
    'id' in ref
      ? await deps.contacts.get(clientId, ref.id)
      : 'email' in ref
        ? await deps.contacts.getByEmail(clientId, ref.email)
        : undefined;
  if (!contact) throw notFound('id', 'Contact not found');
  return contact;
}
