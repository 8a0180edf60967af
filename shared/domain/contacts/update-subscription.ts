import { notFound } from '../../errors.js';
import type { Clock } from '../../platform.js';
import type { TopicStore } from '../topics/topic-store.js';
import type { ContactStore } from './contact-store.js';
import { toContactView, type ContactView } from './contact-view.js';
import { findContact, type ContactRefValue } from './get-contact.js';
import type { SubscriptionBody } from './schemas.js';

/**
 * Unsubscribing stamps `unsubscribed_at` (kept from the first unsubscription) and the reason; resubscribing clears
 * both. With `topic_id` only that topic's choice changes: `is_subscribed` of the contact, its reason and
 * time stay (a contact that left all marketing mail stays so whatever its topic choices say). A topic the client
 * does not have is a 404 on `topic_id`, checked before anything is written.
 */
export async function updateSubscription(
  deps: { clock: Clock; contacts: ContactStore; topics: TopicStore },
  clientId: number,
  ref: ContactRefValue,
  body: SubscriptionBody,
): Promise<ContactView> {
  const [contactId, topics] = await Promise.all([
    'id' in ref ? ref.id : findContact(deps, clientId, ref).then((c) => c.id),
    deps.topics.load(clientId),
  ]);
  if (body.topic_id !== undefined && !topics.topics.some((t) => t.id === body.topic_id))
    throw notFound('topic_id', 'Topic not found');
  const updated = await deps.contacts.updateSubscription(clientId, contactId, {
    is_subscribed: body.is_subscribed,
    ...(body.topic_id !== undefined
      ? { topic_id: body.topic_id }
      : { unsubscribe_reason: body.unsubscribe_reason || undefined }),
    at: deps.clock.now().toISOString(),
  });
  if (!updated) throw notFound('id', 'Contact not found');
  return toContactView(updated, deps.clock.now(), topics.topics);
}
