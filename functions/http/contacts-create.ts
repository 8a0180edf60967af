import { created } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { ContactView } from '../../shared/domain/contacts/contact-view.js';
import { createContact } from '../../shared/domain/contacts/create-contact.js';
import { ContactCreateBody } from '../../shared/domain/contacts/schemas.js';

/** POST /client/contacts */
export const handler = jsonApi(
  {
    summary: 'Create a contact',
    description:
      'Only `email` is required; it is trimmed, lower-cased and unique per client (409 `unique` when it exists, or ' +
      'when `client_contact_id` does). `source` is a name or 0–4 (default api); `custom_fields` is `{name: value}`.',
    body: ContactCreateBody,
    responses: { 201: ContactView },
    errors: [409],
  },
  [contactStore, topicStore, ids, clock],
  async ({ body }, { deps, clientId, principal }) =>
    created(await createContact(deps, clientId, body, principal.keyId ?? 0), 'Contact created'),
);
