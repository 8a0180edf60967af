import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { ContactView } from '../../shared/domain/contacts/contact-view.js';
import { updateSubscription } from '../../shared/domain/contacts/update-subscription.js';
import { ContactRef, SubscriptionBody } from '../../shared/domain/contacts/schemas.js';

/** PATCH /client/contacts/{id}/subscription */
export const handler = jsonApi(
  {
    summary: "Change a contact's subscription",
    description:
      '`is_subscribed` false unsubscribes (with an optional `unsubscribe_reason`) from all marketing mail, true subscribes ' +
      "again. With `topic_id` only that topic's choice changes; a contact unsubscribed from all marketing " +
      'mail stays so whatever its topic choices say.',
    params: ContactRef,
    body: SubscriptionBody,
    responses: { 200: ContactView },
    errors: [404],
  },
  [contactStore, topicStore, clock],
  async ({ params, body }, { deps, clientId }) => {
    const contact = await updateSubscription(deps, clientId, params.id, body);
    const what = body.topic_id !== undefined ? ` ${body.is_subscribed ? 'to' : 'from'} topic ${body.topic_id}` : '';
    return ok(contact, `${body.is_subscribed ? 'Contact subscribed' : 'Contact unsubscribed'}${what}`);
  },
);
