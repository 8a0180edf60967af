import * as z from '../../shared/validation/zod.js';
import { accepted, created, ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { eventStore } from '../../shared/composition/providers/event-store.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { processingStore } from '../../shared/composition/providers/processing-store.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { scheduler } from '../../shared/composition/providers/scheduler.js';
import { createEvent } from '../../shared/domain/events/create-event.js';
import { EventQueueRecordView, EventView } from '../../shared/domain/events/event-view.js';
import { EventBody, EventQuery, isSyncRequest } from '../../shared/domain/events/schemas.js';
import { logger } from '../../shared/logger.js';

/** POST /client/events — 202 queue record (async), 201 processed Event (sync=true / mode=sync), 200 on a replay. */
export const handler = jsonApi(
  {
    summary: 'Create an event',
    description:
      'Reports a business occurrence for a contact named by `email` or `uid` (its `client_contact_id`). By default the ' +
      'event is queued: 202 with the Event queue record. With `sync=true` or `mode=sync` it is processed in the ' +
      'request: 201 with the Event and its `process_error`. The same `idempotency_key` with the same body answers 200 ' +
      'with the original answer (kept 30 days); with another body, 409 `idempotency_conflict`.',
    query: EventQuery,
    body: EventBody,
    responses: {
      200: {
        data: z.union([EventView, EventQueueRecordView]),
        description:
          'A repeated `idempotency_key` with the same body: the original Event (sync) or queue record (async)',
      },
      201: { data: EventView, description: 'Processed in the request (`sync=true` or `mode=sync`)' },
      202: { data: EventQueueRecordView, description: 'Queued for processing' },
    },
    errors: [409],
    rateLimit: 'events',
  },
  [eventStore, processingStore, contactStore, ids, clock, queue, scheduler],
  async ({ query, body }, { deps, clientId, event }) => {
    const raw = event.body as unknown as Record<string, unknown>;
    const result = await createEvent(deps, clientId, body, raw, isSyncRequest(query), (message, error) =>
      logger.error(message, { error: error as Error }),
    );
    if (result.kind === 'queued')
      return result.replay ? ok(result.record, 'Event already accepted') : accepted(result.record, 'Event queued');
    return result.replay ? ok(result.event, 'Event already processed') : created(result.event, 'Event processed');
  },
);
