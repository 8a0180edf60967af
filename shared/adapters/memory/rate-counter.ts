import type { RateCounter, RateWindow } from '../../domain/rate-limits/rate-counter.js';

/** In-memory rate windows for unit tests: the same contract as the DynamoDB counter; `writes` counts its calls. */
export class MemoryRateCounter implements RateCounter {
  readonly counts = new Map<string, number>();
  writes = 0;
  /** Set to make the next `add` calls fail, as an unreachable store would. */
  failWith: Error | undefined;

  async add(window: RateWindow): Promise<number> {
    this.writes++;
    if (this.failWith) throw this.failWith;
    const key = `${window.clientId}:${window.policy}:${window.startsAt}`;
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return count;
  }
}
