import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { updateSubscription } from '../../shared/domain/contacts/update-subscription.js';
import { ContactRef, SubscriptionBody } from '../../shared/domain/contacts/schemas.js';

/** PATCH /client/contacts/{id}/subscription */
export const handler = jsonApi({ params: ContactRef, body: SubscriptionBody }, async ({ params, body }, { deps, clientId }) =>
  ok(await updateSubscription(deps, clientId, params.id, body), body.is_subscribed ? 'Contact subscribed' : 'Contact unsubscribed'),
);
