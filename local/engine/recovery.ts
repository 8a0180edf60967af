import { DynamoEventStore } from '../../shared/adapters/dynamo/event-store.js'; // issue 18 §2
import { DynamoExecutionStore } from '../../shared/adapters/dynamo/execution-store.js';
import type { Container } from '../../shared/composition/container.js';
import { tableOf } from '../../shared/composition/providers/table.js';
import { dispatchExecution } from '../../shared/domain/engine/dispatch.js';
import { sweepAllQueuedEvents } from '../../shared/domain/events/sweep-events.js'; // issue 18 §2
import type { Queue, Scheduler } from '../../shared/ports.js';

/**
 * After a restart with DATA_DIR the in-memory queue and schedules are gone, the table is not: every queued (or
 * executing) execution is dispatched again for its time (events never processed are the sweeper's, which runs at
 * start). The executor is idempotent on the execution id, so recovering one twice is harmless.
 */
export async function recoverEngine(container: Container, engine: { queue: Queue; scheduler: Scheduler }): Promise<{ executions: number }> {
  const { db, tableName } = tableOf(container);
  const executions = await new DynamoExecutionStore(db, tableName).scanQueued();
  const now = new Date();
  await Promise.all(
    executions.map((e) =>
      dispatchExecution(engine, { client_id: e.client_id, execution_id: e.id }, new Date(Math.max(Date.parse(e.scheduled_for), now.getTime())), now),
    ),
  );
  // --- issue 18 §2: every event never processed, whatever its age, is enqueued before the timers start ---
  await sweepAllQueuedEvents({ events: new DynamoEventStore(db, tableName), queue: engine.queue, clock: { now: () => new Date() } });
  // --- end issue 18 §2 ---
  return { executions: executions.length };
}
