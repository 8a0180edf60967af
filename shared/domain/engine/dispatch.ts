import { MAX_QUEUE_DELAY_SECONDS, type ExecutionMessage, type Queue, type Scheduler } from '../../ports.js';

export interface DispatchDeps {
  queue: Queue;
  scheduler: Scheduler;
}

/**
 * Sends an execution to the workflow queue for `at`: due within 15 minutes → SQS DelaySeconds, later → a one-time
 * schedule named after the execution (scheduling it twice is harmless: the executor is idempotent on the id, and
 * an early arrival is sent back for its time).
 */
export async function dispatchExecution(deps: DispatchDeps, message: ExecutionMessage, at: Date, now: Date): Promise<void> {
  const delaySeconds = Math.max(0, Math.ceil((at.getTime() - now.getTime()) / 1000));
  if (delaySeconds <= MAX_QUEUE_DELAY_SECONDS) {
    await deps.queue.send('workflow', message, { delaySeconds });
    return;
  }
  await deps.scheduler.scheduleAt(at, 'workflow', message, `exec-${message.client_id}-${message.execution_id}-${at.getTime()}`);
}
