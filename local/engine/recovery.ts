import { DynamoEventStore } from '../../shared/adapters/dynamo/event-store.js';
import { DynamoExecutionStore } from '../../shared/adapters/dynamo/execution-store.js';
import type { Container } from '../../shared/composition/container.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { deliveryStore } from '../../shared/composition/providers/delivery-store.js';
import { executionStore } from '../../shared/composition/providers/execution-store.js';
import { linkSecret } from '../../shared/composition/providers/link-secret.js';
import { mailer } from '../../shared/composition/providers/mailer.js';
import { queue as queueProvider } from '../../shared/composition/providers/queue.js';
import { scheduler as schedulerProvider } from '../../shared/composition/providers/scheduler.js';
import { senderIdentities } from '../../shared/composition/providers/sender-identities.js';
import { tableOf } from '../../shared/composition/providers/table.js';
import { senderSettingsOf } from '../../shared/composition/sender-settings.js';
import { dispatchExecution } from '../../shared/domain/engine/dispatch.js';
import { sweepAllQueuedEvents } from '../../shared/domain/events/sweep-events.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../shared/domain/executions/execution-record.js';
import { executeWorkflow } from '../../shared/domain/executions/execute-workflow.js';
import type { LocalQueue } from './local-queue.js';
import { JOURNAL_REPLAY_WINDOW_MS, type SesJournal } from './ses-journal.js';

export interface RecoveryResult {
  /** SES notifications replayed from the journal into the status queue. */
  notifications: number;
  /** Queued executions (and retries waiting for their message) dispatched again for their time. */
  dispatched: number;
  /** Claims the crash left at 2, decided at once: completed from evidence or sent once. */
  settled: number;
  /** Events never processed, whatever their age, enqueued again. */
  events: number;
}

/** Claims settled at once at start, in waves of this many (each may call SES). */
const SETTLE_WAVE = 10;

/**
 * The local runtime's start after a stop or a crash with DATA_DIR. The in-memory queues and schedules are
 * gone by definition; the table and the SES journal are not. In order:
 * 1. every SES notification of the journal's window goes back to the status queue, and is processed before anything is
 *    decided — an e-mail the emulator accepted just before the kill is known from here on (ses-journal.ts);
 * 2. every claim the crash left at 2 is settled now, with no lease to wait for: no worker of this runtime can hold it,
 *    all of them died with the process. Evidence completes it; none sends it, once (settle-claim.ts);
 * 3. every queued execution (and every retry waiting for its message) is dispatched again for its time;
 * 4. every event never processed, whatever its age, is enqueued again (the outbox sweep without its age bound).
 * Everything here is idempotent on its ids, so a crash during recovery is recovered by the next start.
 */
export async function recoverEngine(
  container: Container,
  engine: { queue: LocalQueue; journal?: SesJournal },
  now: () => Date = () => new Date(),
): Promise<RecoveryResult> {
  const { db, tableName } = tableOf(container);
  const deps = container.resolve([
    executionStore,
    deliveryStore,
    mailer,
    clock,
    queueProvider,
    schedulerProvider,
    linkSecret,
    senderIdentities,
  ]);
  const executeDeps = {
    ...deps,
    sender: senderSettingsOf(deps.config, await deps.linkSecret.value()),
    leaseMs: deps.config.EXECUTION_LEASE_SECONDS * 1000,
  };

  let notifications = 0;
  if (engine.journal) {
    const replay = engine.journal.compact(now().getTime() - JOURNAL_REPLAY_WINDOW_MS);
    for (const entry of replay) await engine.queue.send('ses-status', entry.message);
    notifications = replay.length;
    await engine.queue.idle(120_000);
  }

  const pending = await new DynamoExecutionStore(db, tableName).scanQueued();
  const stranded = pending.filter((e) => e.status === EXECUTION_STATUS.executing && e.retry_pending !== true);
  const waiting = pending.filter((e) => !stranded.includes(e));
  for (let i = 0; i < stranded.length; i += SETTLE_WAVE) {
    await Promise.all(
      stranded
        .slice(i, i + SETTLE_WAVE)
        .map((e) => executeWorkflow(executeDeps, e.client_id, e.id, { leaseVoid: true }).catch(logFailure(e))),
    );
  }
  const at = now();
  await Promise.all(
    waiting.map((e) =>
      dispatchExecution(
        deps,
        { client_id: e.client_id, execution_id: e.id },
        new Date(Math.max(Date.parse(e.scheduled_for), at.getTime())),
        at,
      ).catch(logFailure(e)),
    ),
  );

  // A failed send here (an injected SQS fault) leaves the events queued: the periodic sweep enqueues them.
  const events = await sweepAllQueuedEvents({
    events: new DynamoEventStore(db, tableName),
    queue: deps.queue,
    clock: { now },
  }).catch(
    (error: unknown) => (
      console.error('[recovery] queued events not all enqueued at start; the outbox sweep will', error), { enqueued: 0 }
    ),
  );
  return { notifications, dispatched: waiting.length, settled: stranded.length, events: events.enqueued };
}

/** An execution not settled or dispatched now (an injected fault) stays as it is: its lease ends and a sweep brings it back. */
const logFailure = (e: ExecutionRecord) => (error: unknown) => {
  console.error(
    `[recovery] execution ${e.client_id}/${e.id} not settled at start; the stuck-execution sweep will`,
    error,
  );
};
