import type { IpRateCounter, IpRateWindow } from '../../domain/rate-limits/ip-limit.js';

/** In-memory per-IP windows for unit tests: the DynamoDB counter's contract; `writes` counts its calls. */
export class MemoryIpRateCounter implements IpRateCounter {
  readonly counts = new Map<string, number>();
  writes = 0;
  /** Set to make the next `add` calls fail, as an unreachable store would. */
  failWith: Error | undefined;

  async add(window: IpRateWindow): Promise<number> {
    this.writes++;
    if (this.failWith) throw this.failWith;
    const key = `${window.ipHash}:${window.startsAt}`;
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return count;
  }
}
