import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { linkSecretOf } from '../../shared/composition/link-secret.js';
import { ContactListQuery, listContacts } from '../../shared/domain/contacts/list-contacts.js';
import { jsonApi } from '../../shared/http/api.js';
import { ok } from '../../shared/http/envelope.js';

/** GET /client/contacts — extra: ascending id; email_prefix, is_subscribed, source, updated_since; limit + cursor. */
export const handler = jsonApi({ query: ContactListQuery }, [contactStore, clock], async ({ query }, { deps, clientId }) => {
  const list = await listContacts({ ...deps, cursorSecret: linkSecretOf(deps.config) }, clientId, query);
  return ok(list, 'OK', { limit: query.limit });
});
