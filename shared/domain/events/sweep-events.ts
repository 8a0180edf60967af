import type { Clock, Queue } from '../../ports.js';
import type { EventStore } from './event-store.js';

/** An event still queued after this long lost its enqueue (the write landed, the SQS send did not). */
export const SWEEP_AFTER_MS = 2 * 60 * 1000;
const SWEEP_BATCH = 100;

/**
 * The outbox sweeper: events written but never enqueued (the API wrote the event, then the SQS send failed or the
 * function died) are enqueued again. Processing is idempotent on the event id, so one enqueued twice is harmless.
 * Returns how many were enqueued. AWS: a scheduled function every few minutes; locally, on boot and every minute.
 */
export async function sweepQueuedEvents(deps: { events: EventStore; queue: Queue; clock: Clock }): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - SWEEP_AFTER_MS).toISOString();
  const stale = await deps.events.listQueuedBefore(before, SWEEP_BATCH);
  await Promise.all(stale.map((e) => deps.queue.send('events', { client_id: e.client_id, event_id: e.id })));
  return stale.length;
}
