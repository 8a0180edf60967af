import { notFound } from '../../errors.js';
import type { Clock } from '../../ports.js';
import type { ContactStore } from './contact-store.js';
import { toContactView, type ContactView } from './contact-view.js';
import { findContact, type ContactRefValue } from './get-contact.js';
import type { SubscriptionBody } from './schemas.js';

/**
 * Unsubscribing stamps `unsubscribed_at` (kept from the first unsubscription) and the reason;
 * resubscribing clears both.
 */
export async function updateSubscription(
  deps: { clock: Clock; contacts: ContactStore },
  clientId: number,
  ref: ContactRefValue,
  body: SubscriptionBody,
): Promise<ContactView> {
  const contactId = 'id' in ref ? ref.id : (await findContact(deps, clientId, ref)).id;
  const updated = await deps.contacts.updateSubscription(clientId, contactId, {
    is_subscribed: body.is_subscribed,
    unsubscribe_reason: body.unsubscribe_reason || undefined,
    at: deps.clock.now().toISOString(),
  });
  if (!updated) throw notFound('id', 'Contact not found');
  return toContactView(updated, deps.clock.now());
}
