import { notFound } from '../../errors.js';
import type { EventStore } from './event-store.js';
import { toEventView } from './event-view.js';

/** GET /client/events/{id}: another client's event is answered exactly like a missing one. */
export async function getEvent(deps: { events: EventStore }, clientId: number, eventId: number) {
  const event = eventId > 0 ? await deps.events.get(clientId, eventId) : undefined;
  if (!event) throw notFound('id', 'Event not found');
  return toEventView(event);
}
