import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { eventStore } from '../../shared/composition/providers/event-store.js';
import { getEvent } from '../../shared/domain/events/get-event.js';
import { EventIdParams } from '../../shared/domain/events/schemas.js';

/** GET /client/events/{id} — the Event with its processing result (extra: async callers can look). */
export const handler = jsonApi({ params: EventIdParams }, [eventStore], async ({ params }, { deps, clientId }) =>
  ok(await getEvent(deps, clientId, params.id)),
);
