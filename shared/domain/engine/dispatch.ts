import {
  type BroadcastMessage,
  MAX_QUEUE_DELAY_SECONDS,
  type ExecutionMessage,
  type Queue,
  type RunMessage,
  type Scheduler,
} from '../../platform.js';

export interface DispatchDeps {
  queue: Queue;
  scheduler: Scheduler;
}

/**
 * Sends an execution to the workflow queue for `at`: due within 15 minutes → SQS DelaySeconds, later → a one-time
 * schedule named after the execution (scheduling it twice is harmless: the executor is idempotent on the id, and
 * an early arrival is sent back for its time).
 */
export async function dispatchExecution(
  deps: DispatchDeps,
  message: ExecutionMessage,
  at: Date,
  now: Date,
): Promise<void> {
  const delaySeconds = Math.max(0, Math.ceil((at.getTime() - now.getTime()) / 1000));
  if (delaySeconds <= MAX_QUEUE_DELAY_SECONDS) {
    await deps.queue.send('workflow', message, { delaySeconds });
    return;
  }
  await deps.scheduler.scheduleAt(at, 'workflow', message, executionScheduleName(message, at));
}

/**
 * Sends a run of a journey to the journey queue for `at`, by the same rule as an execution: within 15 minutes an SQS
 * delay, later a one-time schedule named after the run, its seq and the time (advance-runs ignores an old seq and
 * sends an early arrival back for its time).
 */
export async function dispatchRun(deps: DispatchDeps, message: RunMessage, at: Date, now: Date): Promise<void> {
  const delaySeconds = Math.max(0, Math.ceil((at.getTime() - now.getTime()) / 1000));
  if (delaySeconds <= MAX_QUEUE_DELAY_SECONDS) {
    await deps.queue.send('journey', message, { delaySeconds });
    return;
  }
  await deps.scheduler.scheduleAt(at, 'journey', message, runScheduleName(message, at));
}

/**
 * Sends a broadcast engine step to the broadcast queue for `at`, by the same rule: within 15 minutes an SQS delay,
 * later a one-time schedule named after the broadcast, the step, its shard, its chain and the time (every step is
 * idempotent on the broadcast's items, and an early arrival is sent back for its time).
 */
export async function dispatchBroadcast(
  deps: DispatchDeps,
  message: BroadcastMessage,
  at: Date,
  now: Date,
): Promise<void> {
  const delaySeconds = Math.max(0, Math.ceil((at.getTime() - now.getTime()) / 1000));
  if (delaySeconds <= MAX_QUEUE_DELAY_SECONDS) {
    await deps.queue.send('broadcast', message, { delaySeconds });
    return;
  }
  await deps.scheduler.scheduleAt(at, 'broadcast', message, broadcastScheduleName(message, at));
}

/** A broadcast step's schedule for one time (a scheduled start, a pace beyond 15 minutes). */
export const broadcastScheduleName = (message: BroadcastMessage, at: Date): string =>
  `bcast-${message.client_id}-${message.broadcast_id}-${message.kind}-${message.shard ?? 0}-${message.gen ?? 0}-${at.getTime()}`;

/** A run's schedule for one seq and time (a wait's end, a wait_for_event's timeout). */
export const runScheduleName = (message: RunMessage, at: Date): string =>
  `run-${message.client_id}-${message.run_id}-${message.seq}-${at.getTime()}`;

/**
 * Releases the timeout schedule of a wait its event ended first (the same rule as releaseExecutionSchedule: only a
 * time more than 15 minutes away went to the scheduler for sure). A schedule left behind fires once and finds its
 * seq stale.
 */
export async function releaseRunSchedule(
  deps: { scheduler: Scheduler; onReleaseError?: (error: unknown) => void },
  message: RunMessage,
  dueAt: string | undefined,
  now: Date,
): Promise<boolean> {
  const at = dueAt === undefined ? Number.NaN : Date.parse(dueAt);
  if (Number.isNaN(at) || at - now.getTime() <= MAX_QUEUE_DELAY_SECONDS * 1000) return false;
  try {
    await deps.scheduler.cancel(runScheduleName(message, new Date(at)));
    return true;
  } catch (error) {
    (deps.onReleaseError ?? warnReleaseFailed)(error);
    return false;
  }
}

/** An execution's schedule for `at`: its name is the idempotency key of that dispatch. */
export const executionScheduleName = (message: ExecutionMessage, at: Date): string =>
  `exec-${message.client_id}-${message.execution_id}-${at.getTime()}`;

/**
 * Releases the schedule of an execution that will not run (cancelled by a goal's exit event): the one its dispatch
 * for `scheduledFor` created. Only when that time is more than 15 minutes away: a dispatch for it went to the
 * scheduler for sure (SQS takes up to 15 minutes); a nearer one may be an SQS delay, and fires soon to find the
 * execution cancelled. A schedule a later dispatch made (a deferral) is named after its own time and is not found
 * here: it fires once and the executor drops the cancelled execution. Never fails the caller: a schedule left
 * behind costs one delivery and one read.
 */
export async function releaseExecutionSchedule(
  deps: { scheduler: Scheduler; onReleaseError?: (error: unknown) => void },
  message: ExecutionMessage,
  scheduledFor: string | undefined,
  now: Date,
): Promise<boolean> {
  const at = scheduledFor === undefined ? Number.NaN : Date.parse(scheduledFor);
  if (Number.isNaN(at) || at - now.getTime() <= MAX_QUEUE_DELAY_SECONDS * 1000) return false;
  try {
    await deps.scheduler.cancel(executionScheduleName(message, new Date(at)));
    return true;
  } catch (error) {
    (deps.onReleaseError ?? warnReleaseFailed)(error);
    return false;
  }
}

/** A structured warning line (CloudWatch keeps it on AWS), as the day counters' (adapters/dynamo/transactions.ts). */
const warnReleaseFailed = (error: unknown): void =>
  console.warn(
    JSON.stringify({
      level: 'WARN',
      message: 'execution schedule not released; it will fire and find the execution cancelled',
      error: String(error),
    }),
  );
