import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { eventStore } from '../../shared/composition/providers/event-store.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { processingStore } from '../../shared/composition/providers/processing-store.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { scheduler } from '../../shared/composition/providers/scheduler.js';
import { eventProcessingDeps } from '../../shared/domain/events/create-event.js';
import { processEvent } from '../../shared/domain/events/process-event.js';
import { EventMessage } from '../../shared/domain/events/schemas.js';
import { sqsBatch } from '../../shared/queue/sqs-batch.js';

/** events queue → one event processed per message (idempotent on the event id). */
export const handler = sqsBatch(
  EventMessage,
  [eventStore, processingStore, contactStore, ids, clock, queue, scheduler],
  async (message, { deps }) => {
    await processEvent(eventProcessingDeps(deps), message.client_id, message.event_id);
  },
);
