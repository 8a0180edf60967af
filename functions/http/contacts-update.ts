import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { contactWrites } from '../../shared/composition/providers/contact-writes.js';
import { ContactView } from '../../shared/domain/contacts/contact-view.js';
import { ContactRef } from '../../shared/domain/contacts/schemas.js';
import { ContactPatchBody, updateContact } from '../../shared/domain/contacts/update-contact.js';
import { jsonApi } from '../../shared/http/api.js';
import { ok } from '../../shared/http/envelope.js';

/** PATCH /client/contacts/{id} — extra: partial update (id or e-mail); e-mail / client_contact_id moves lock atomically. */
export const handler = jsonApi(
  {
    summary: 'Update a contact',
    description:
      'Extra to SPEC.md. Any subset of the contact body, with its rules: an absent field keeps its value, `""` or ' +
      'null clears it, custom fields merge. A new `email` or `client_contact_id` held by another contact is 409 `unique`.',
    params: ContactRef,
    body: ContactPatchBody,
    responses: { 200: ContactView },
    errors: [404, 409],
  },
  [contactStore, topicStore, contactWrites, clock],
  async ({ params, body }, { deps, clientId }) => {
    const { contact, changed } = await updateContact(deps, clientId, params.id, body);
    return ok(contact, changed ? 'Contact updated' : 'Contact unchanged');
  },
);
