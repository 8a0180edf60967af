import { DynamoEventStore } from '../../shared/adapters/dynamo/event-store.js';
import { DynamoExecutionStore } from '../../shared/adapters/dynamo/execution-store.js';
import { DynamoRunStore } from '../../shared/adapters/dynamo/run-store.js';
import { DynamoRecipientStore } from '../../shared/adapters/dynamo/recipient-store.js';
import { sweepBroadcasts } from '../../shared/domain/broadcasts/engine/sweep-broadcasts.js';
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
import { dispatchExecution, dispatchRun } from '../../shared/domain/engine/dispatch.js';
import type { RunStore } from '../../shared/domain/runs/run-store.js';
import { sweptMessageOf } from '../../shared/domain/runs/sweep-runs.js';
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
  /** Journey runs still due (active or waiting) dispatched again for their due time. */
  runs: number;
  /** Broadcast steps sent again: the start, snapshot shards, pacer or cancel job of every live broadcast. */
  broadcasts: number;
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
 * 3. every queued execution (and every retry waiting for its message) is dispatched again for its time (not a
 *    broadcast's recipient waiting in its due index: see 6);
 * 4. every event never processed, whatever its age, is enqueued again (the outbox sweep without its age bound);
 * 5. every journey run still due (its RUNDUE entry: active or waiting) is dispatched again for its due time with its
 *    current seq — its delayed message or schedule lived in this process's memory; a run that already moved ignores it;
 * 6. every live broadcast gets its steps' messages again (sweep-broadcasts with no age): a scheduled one its start at
 *    its time, unfinished snapshot shards their page, a sending one a pace message that takes its chain over and reads
 *    its due index from the start (recipients released before the crash whose messages died with it go out again,
 *    at the pace). Step 3 leaves recipients in a due index alone: dispatching them there would send them all at once.
 *    Recipients already claimed were settled by step 2.
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

  const runs = await redispatchRuns(new DynamoRunStore(db, tableName, undefined), deps, at);

  const broadcasts = await sweepBroadcasts(
    {
      recipients: new DynamoRecipientStore(db, tableName),
      queue: deps.queue,
      scheduler: deps.scheduler,
      clock: { now },
    },
    { everyLive: true },
  ).catch(
    (error: unknown) => (
      console.error('[recovery] broadcasts not all restarted at start; sweep-broadcasts will', error), { resent: 0 }
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
  return {
    notifications,
    dispatched: waiting.length,
    settled: stranded.length,
    events: events.enqueued,
    runs,
    broadcasts: broadcasts.resent,
  };
}

/**
 * When a run's message is sent again: its due time, or now when that passed. A run waiting on a send's execution is
 * looked at now: the crash may have taken the executor's wake with it (its due time is only the safety net, an hour
 * after the send time); an execution not ended yet sends the run back for that time.
 */
const dueOf = (run: { due_at: string; execution_id?: number }, at: Date): Date =>
  run.execution_id !== undefined ? at : new Date(Math.max(Date.parse(run.due_at), at.getTime()));

/** Runs read a page at a time from the RUNDUE index (with their seq). */
const RUN_PAGE = 500;

/**
 * Step 5: every run the RUNDUE index holds, whatever its due time, gets its message again. A failed dispatch (an
 * injected SQS fault) is left to sweep-runs, which finds the run once it is 2 minutes past due.
 */
export async function redispatchRuns(
  runs: Pick<RunStore, 'allDue'>,
  deps: Parameters<typeof dispatchRun>[0],
  at: Date,
): Promise<number> {
  let cursor: string | undefined;
  let count = 0;
  do {
    const page = await runs.allDue(RUN_PAGE, cursor);
    await Promise.all(
      page.runs.map((run) =>
        dispatchRun(deps, sweptMessageOf(run), dueOf(run, at), at).catch((error: unknown) =>
          console.error(
            `[recovery] run ${run.client_id}/${run.run_id} not dispatched at start; sweep-runs will`,
            error,
          ),
        ),
      ),
    );
    count += page.runs.length;
    cursor = page.cursor;
  } while (cursor);
  return count;
}

/** An execution not settled or dispatched now (an injected fault) stays as it is: its lease ends and a sweep brings it back. */
const logFailure = (e: ExecutionRecord) => (error: unknown) => {
  console.error(
    `[recovery] execution ${e.client_id}/${e.id} not settled at start; the stuck-execution sweep will`,
    error,
  );
};
