import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { eventStore } from '../../shared/composition/providers/event-store.js';
import { EventView } from '../../shared/domain/events/event-view.js';
import { getEvent } from '../../shared/domain/events/get-event.js';
import { EventIdParams } from '../../shared/domain/events/schemas.js';

/** GET /client/events/{id} — the Event with its processing result (extra: async callers can look). */
export const handler = jsonApi(
  {
    summary: 'Get an event',
    description:
      'Extra to SPEC.md: the Event with its processing result, so a caller of the asynchronous mode can look.',
    params: EventIdParams,
    responses: { 200: EventView },
    errors: [404],
  },
  [eventStore],
  async ({ params }, { deps, clientId }) => ok(await getEvent(deps, clientId, params.id)),
);
