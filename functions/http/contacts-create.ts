import { created } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { createContact } from '../../shared/domain/contacts/create-contact.js';
import { ContactBody } from '../../shared/domain/contacts/schemas.js';

/** POST /client/contacts */
export const handler = jsonApi(
  { body: ContactBody },
  [contactStore, ids, clock],
  async ({ body }, { deps, clientId, principal }) =>
    created(await createContact(deps, clientId, body, principal.keyId ?? 0), 'Contact created'),
);
