import { AsyncLocalStorage } from 'node:async_hooks';
import { WaveTracker } from './wave-tracker.js';

/** Counts the DynamoDB requests a client sends, by command name (benchmarks and request-budget tests read it). */
export class RequestCounter {
  readonly byCommand = new Map<string, number>();
  total = 0;
  readonly waveTracker = new WaveTracker();

  record(command: string): void {
    this.total += 1;
    this.byCommand.set(command, (this.byCommand.get(command) ?? 0) + 1);
  }

  reset(): void {
    this.total = 0;
    this.byCommand.clear();
    this.waveTracker.reset();
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries(this.byCommand);
  }

  /** Sequential request waves since the last reset (see WaveTracker). */
  get waves(): number {
    return this.waveTracker.waves;
  }

  /**
   * Runs `fn` and reports the DynamoDB requests it sent (and their waves) on their own, even while other requests
   * share this container (the local runtime serves many at once): the scope follows the async context.
   */
  async measure<T>(fn: () => Promise<T>): Promise<{ result: T; usage: RequestUsage }> {
    const scoped = new RequestCounter();
    const result = await requestScopes.run(scoped, fn);
    return { result, usage: { requests: scoped.total, waves: scoped.waves, by_command: scoped.snapshot() } };
  }
}

export interface RequestUsage {
  requests: number;
  waves: number;
  by_command: Record<string, number>;
}

const requestScopes = new AsyncLocalStorage<RequestCounter>();

/** Records one request attempt on the counter and on the caller's `measure` scope; returns the end callback. */
export function beginRequest(counter: RequestCounter, command: string): () => void {
  const scoped = requestScopes.getStore();
  const counters = scoped && scoped !== counter ? [counter, scoped] : [counter];
  const ends = counters.map((c) => {
    c.record(command);
    const depth = c.waveTracker.begin();
    return () => c.waveTracker.end(depth);
  });
  return () => {
    for (const end of ends) end();
  };
}
