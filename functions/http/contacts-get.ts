import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { findContact } from '../../shared/domain/contacts/get-contact.js';
import { ContactView, toContactView } from '../../shared/domain/contacts/contact-view.js';
import { ContactRef } from '../../shared/domain/contacts/schemas.js';

/** GET /client/contacts/{id} — id or e-mail. */
export const handler = jsonApi(
  {
    summary: 'Get a contact',
    description: '`{id}` is the contact id (digits) or its e-mail address (URL-encoded, case-insensitive).',
    params: ContactRef,
    responses: { 200: ContactView },
    errors: [404],
  },
  [contactStore, topicStore, clock],
  async ({ params }, { deps, clientId }) => {
    const [contact, topics] = await Promise.all([findContact(deps, clientId, params.id), deps.topics.load(clientId)]);
    return ok(toContactView(contact, deps.clock.now(), topics.topics));
  },
);
