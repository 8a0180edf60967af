import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { linkSecret } from '../../shared/composition/providers/link-secret.js';
import {
  ContactList,
  ContactListMeta,
  ContactListQuery,
  listContacts,
} from '../../shared/domain/contacts/list-contacts.js';
import { jsonApi } from '../../shared/http/api.js';
import { ok } from '../../shared/http/envelope.js';

/** GET /client/contacts — extra: ascending id; email_prefix, is_subscribed, source, updated_since; limit + cursor. */
export const handler = jsonApi(
  {
    summary: 'List contacts',
    description:
      'Extra to SPEC.md. The contacts by ascending id, filtered by `email_prefix`, `is_subscribed`, `source` and ' +
      '`updated_since`, `limit` (≤ 100) per page. Follow `next_cursor` (opaque, signed) until it is null: a selective ' +
      'filter may give a short or even empty page before the end.',
    query: ContactListQuery,
    responses: { 200: { data: ContactList, meta: ContactListMeta } },
  },
  [contactStore, topicStore, clock, linkSecret],
  async ({ query }, { deps, clientId }) => {
    const list = await listContacts({ ...deps, cursorSecret: await deps.linkSecret.value() }, clientId, query);
    return ok(list, 'OK', { limit: query.limit });
  },
);
