/** What one wrapper injected: calls it saw, and faults it injected by kind (tests, the bench, `runtime.faults`). */
export interface FaultCounts<K extends string = string> {
  calls: number;
  /** Only the kinds that have a rule appear, from 0. */
  injected: Partial<Record<K, number>>;
  /** Sum of `injected`. */
  total: number;
}

/**
 * Picks, per call, at most one fault of one target. One draw in [0, 1) per call; the rules share the interval in
 * the order written (rate 0 never fires, rate 1 always). Counts are kept here and nothing is logged per call.
 */
export class FaultDice<K extends string> {
  private calls = 0;
  private readonly injected: Partial<Record<K, number>> = {};

  constructor(
    private readonly rules: readonly { kind: K; rate: number }[],
    private readonly random: () => number,
  ) {
    for (const rule of rules) this.injected[rule.kind] = 0;
  }

  /** The fault this call gets, if any; the caller records it with `record` once it injected it. */
  draw(): K | undefined {
    this.calls += 1;
    if (this.rules.length === 0) return undefined;
    let point = this.random();
    for (const rule of this.rules) {
      if (point < rule.rate) return rule.kind;
      point -= rule.rate;
    }
    return undefined;
  }

  record(kind: K): void {
    this.injected[kind] = (this.injected[kind] ?? 0) + 1;
  }

  counts(): FaultCounts<K> {
    const injected = { ...this.injected };
    const total = Object.values<number | undefined>(injected).reduce<number>((sum, n) => sum + (n ?? 0), 0);
    return { calls: this.calls, injected, total };
  }
}
