/**
 * Counts sequential request waves: the length of the longest chain of requests in which each one started only
 * after the one before it had finished. Requests that overlap in time share a wave, so N parallel calls followed by
 * one dependent call are 2 waves, and a loop of 1000 awaited calls is 1000.
 *
 * A request's depth is one more than the deepest request that had finished when it started; the tracker only
 * needs that running maximum, so it is O(1) per request and safe under any interleaving.
 */
export class WaveTracker {
  private deepestFinished = 0;
  /** The deepest request seen since the last reset. */
  waves = 0;

  /** Call when a request is sent; pass the returned depth to `end`. */
  begin(): number {
    const depth = this.deepestFinished + 1;
    if (depth > this.waves) this.waves = depth;
    return depth;
  }

  end(depth: number): void {
    if (depth > this.deepestFinished) this.deepestFinished = depth;
  }

  reset(): void {
    this.deepestFinished = 0;
    this.waves = 0;
  }
}
