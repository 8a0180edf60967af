import type { Queue, RunMessage } from '../../platform.js';
import type { ExecutionRecord } from './execution-record.js';
import { runWakeOf } from './journey-execution.js';

export interface WakeRunDeps {
  queue: Queue;
  /** Where a failed wake is reported; default a structured warning line. */
  onWakeError?: (error: unknown, message: RunMessage) => void;
}

/**
 * After an execution's ending write (completed, failed, skipped, cancelled — by the executor, from evidence, or a
 * duplicate delivery finding it already ended): the run whose send step it is moves on. One SQS send to the journey
 * queue, only for a journey's send (the 8 system workflows' executions have no run and send nothing). A failed send
 * leaves the ending written and is thrown after its warning line, so the execution's own message fails and comes back:
 * that delivery finds the execution ended and wakes the run again (execute-workflow), within the visibility timeout
 * instead of the run's safety net an hour on. The RUNDUE entry (scheduled_for + 1 h, swept by sweep-runs) still
 * catches a wake lost with its message (a crash right after the ending write).
 */
export async function wakeRunOf(deps: WakeRunDeps, execution: ExecutionRecord): Promise<void> {
  const message = runWakeOf(execution);
  if (!message) return;
  try {
    await deps.queue.send('journey', message);
  } catch (error) {
    (deps.onWakeError ?? warnWakeFailed)(error, message);
    throw error;
  }
}

const warnWakeFailed = (error: unknown, message: RunMessage): void =>
  console.warn(
    JSON.stringify({
      level: 'WARN',
      message: "run not woken after its send step's execution ended; the execution's message is retried to wake it",
      run: message,
      error: String(error),
    }),
  );
