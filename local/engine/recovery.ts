import { DynamoEventStore } from '../../shared/adapters/dynamo/event-store.js';
import { DynamoExecutionStore } from '../../shared/adapters/dynamo/execution-store.js';
import type { Container } from '../../shared/composition/container.js';
import { dispatchExecution } from '../../shared/domain/engine/dispatch.js';
import { sweepQueuedEvents } from '../../shared/domain/events/sweep-events.js';
import type { Queue, Scheduler } from '../../shared/ports.js';

/**
 * After a restart with DATA_DIR the in-memory queue and schedules are gone, the table is not: every queued (or
 * executing) execution is dispatched again for its time, and events never processed are enqueued. The executor and
 * the processor are idempotent on their ids, so recovering one twice is harmless.
 */
export async function recoverEngine(container: Container, engine: { queue: Queue; scheduler: Scheduler }): Promise<{ executions: number; events: number }> {
  const { db, tableName } = container.dynamo();
  const executions = await new DynamoExecutionStore(db, tableName).scanQueued();
  const now = new Date();
  await Promise.all(
    executions.map((e) =>
      dispatchExecution(engine, { client_id: e.client_id, execution_id: e.id }, new Date(Math.max(Date.parse(e.scheduled_for), now.getTime())), now),
    ),
  );
  const events = await sweepEvents(container, engine.queue);
  return { executions: executions.length, events };
}

export function sweepEvents(container: Container, queue: Queue): Promise<number> {
  const { db, tableName } = container.dynamo();
  return sweepQueuedEvents({ events: new DynamoEventStore(db, tableName), queue, clock: { now: () => new Date() } });
}
