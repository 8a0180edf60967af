import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { erasureStore } from '../../shared/composition/providers/erasure-store.js';
import { ContactErasure, ContactErasureMeta, eraseContact } from '../../shared/domain/contacts/erase-contact.js';
import { ContactRef } from '../../shared/domain/contacts/schemas.js';
import { jsonApi } from '../../shared/http/api.js';
import { ok } from '../../shared/http/envelope.js';

/** DELETE /client/contacts/{id} — extra: erasure (GDPR Art. 17) of the contact and the personal data of its history. */
export const handler = jsonApi(
  {
    summary: 'Erase a contact',
    description:
      'Extra to SPEC.md (GDPR Art. 17). `{id}` is the contact id or its e-mail. The contact, its locks and custom field ' +
      'values are removed; its queued executions are cancelled (`contact_erased`); its events and sent e-mails keep ' +
      'their ids and statuses but lose every personal datum (addresses, names, subjects, bodies, payloads, ip, user ' +
      'agent, urls). An address that hard-bounced or complained stays as a hash (a suppression marker): adding it ' +
      'again is refused with `suppressed`. Repeatable: by id, an erased contact answers 200 with `already_erased` ' +
      'and zero counts; by e-mail it is 404.',
    params: ContactRef,
    responses: { 200: { data: ContactErasure, meta: ContactErasureMeta } },
    errors: [404, 409],
  },
  [contactStore, erasureStore, clock],
  async ({ params }, { deps, clientId }) => {
    const { result, usage } = await deps.requestCounter.measure(() => eraseContact(deps, clientId, params.id));
    return ok(result, result.already_erased ? 'Contact already erased' : 'Contact erased', {
      dynamodb: { requests: usage.requests, waves: usage.waves },
    });
  },
);
