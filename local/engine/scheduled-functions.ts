import { scheduledFunctions, type ScheduledFunctionDefinition } from '../../functions/scheduled.js';
import { createHandlerLoader } from '../handler-loader.js';

type ScheduledHandler = () => Promise<unknown>;

/**
 * The local side of functions/scheduled.ts: each function runs once at start (the sweeper then recovers what a
 * previous run left behind) and every `everyMinutes` after, as its EventBridge rule runs it on AWS.
 */
export function startScheduledFunctions(table: readonly ScheduledFunctionDefinition[] = scheduledFunctions): {
  stop(): void;
} {
  const load = createHandlerLoader<ScheduledHandler>('scheduled');
  const run = (fn: ScheduledFunctionDefinition) =>
    load(fn.handler)
      .then((handler) => handler())
      .catch((error: unknown) => console.error(`[${fn.handler}] failed`, error));
  // LOCAL_SWEEP_EVERY_SECONDS compresses the timers (chaos runs, demos), as the local queue compresses its visibility.
  const override = Number(process.env['LOCAL_SWEEP_EVERY_SECONDS'] ?? '');
  const everyMs = (fn: ScheduledFunctionDefinition) =>
    Number.isFinite(override) && override > 0 ? override * 1000 : fn.everyMinutes * 60_000;
  const timers = table.map((fn) => {
    void run(fn);
    const timer = setInterval(() => void run(fn), everyMs(fn));
    timer.unref();
    return timer;
  });
  return {
    stop: () => {
      for (const t of timers) clearInterval(t);
    },
  };
}
