import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { ContactRef } from '../../shared/domain/contacts/schemas.js';
import { ContactPatchBody, updateContact } from '../../shared/domain/contacts/update-contact.js';
import { jsonApi } from '../../shared/http/api.js';
import { ok } from '../../shared/http/envelope.js';

/** PATCH /client/contacts/{id} — extra: partial update (id or e-mail); e-mail / client_contact_id moves lock atomically. */
export const handler = jsonApi({ params: ContactRef, body: ContactPatchBody }, [contactStore, clock], async ({ params, body }, { deps, clientId }) => {
  const { contact, changed } = await updateContact(deps, clientId, params.id, body);
  return ok(contact, changed ? 'Contact updated' : 'Contact unchanged');
});
