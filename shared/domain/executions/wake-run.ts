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
 * does not fail the ending, which is written and stays: the run's RUNDUE entry (due at the execution's scheduled_for
 * + 1 h, swept by sweep-runs) brings the run back, and advance-runs finds the execution ended then.
 */
export async function wakeRunOf(deps: WakeRunDeps, execution: ExecutionRecord): Promise<void> {
  const message = runWakeOf(execution);
  if (!message) return;
  try {
    await deps.queue.send('journey', message);
  } catch (error) {
    (deps.onWakeError ?? warnWakeFailed)(error, message);
  }
}

const warnWakeFailed = (error: unknown, message: RunMessage): void =>
  console.warn(
    JSON.stringify({
      level: 'WARN',
      message: "run not woken after its send step's execution ended; sweep-runs brings it back at its due time",
      run: message,
      error: String(error),
    }),
  );
