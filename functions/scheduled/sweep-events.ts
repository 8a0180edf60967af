import { getContainer } from '../../shared/composition/container.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { eventStore } from '../../shared/composition/providers/event-store.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { sweepQueuedEvents, type SweepSummary } from '../../shared/domain/events/sweep-events.js';
import { logger } from '../../shared/logger.js';

/** Every few minutes: enqueue the events whose enqueue was lost after they were written. */
export const handler = async (): Promise<SweepSummary> => {
  const deps = getContainer().resolve([eventStore, queue, clock]);
  const summary = await sweepQueuedEvents(deps, { olderThanMs: deps.config.OUTBOX_SWEEP_AFTER_SECONDS * 1000 });
  if (summary.enqueued > 0) logger.warn('events enqueued by the sweeper', { ...summary });
  return summary;
};
