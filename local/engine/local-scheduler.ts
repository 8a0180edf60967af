import type { Queue, QueueMessages, QueueName, Scheduler } from '../../shared/platform.js';

/** setTimeout's longest wait (2^31 − 1 ms ≈ 24.8 days); longer waits are chained. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * EventBridge Scheduler's one-time schedules in the process: at the instant, the message goes to the queue. Like
 * the real one, a name is scheduled once (a second request with the same name is ignored) and a schedule is
 * deleted after it ran. Schedules live in memory: with DATA_DIR the runtime recovers queued executions from the
 * table on boot instead (local/engine/recovery.ts).
 */
export class LocalScheduler implements Scheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly queue: Queue,
    private readonly now: () => number = Date.now,
  ) {}

  async scheduleAt<Q extends QueueName>(
    instant: Date,
    queue: Q,
    message: QueueMessages[Q],
    name: string,
  ): Promise<void> {
    if (this.timers.has(name)) return;
    this.arm(name, instant.getTime(), () => this.queue.send(queue, message));
  }

  async cancel(name: string): Promise<void> {
    const timer = this.timers.get(name);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.timers.delete(name);
  }

  get pending(): number {
    return this.timers.size;
  }

  stop(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private arm(name: string, at: number, fire: () => Promise<void>): void {
    const wait = Math.max(0, at - this.now());
    const timer = setTimeout(
      () => {
        if (wait > MAX_TIMER_MS) return this.arm(name, at, fire);
        this.timers.delete(name);
        fire().catch((error: unknown) => console.error(`[scheduler] ${name} could not be delivered`, error));
      },
      Math.min(wait, MAX_TIMER_MS),
    );
    timer.unref();
    this.timers.set(name, timer);
  }
}
