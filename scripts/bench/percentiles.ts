/** Latency figures of a set of samples (milliseconds): count, nearest-rank p50 and p95, and the largest. */
export interface LatencySummary {
  n: number;
  p50: number;
  p95: number;
  max: number;
}

/**
 * The nearest-rank percentile of `values` (any order): the smallest sample such that at least `p` % of the samples
 * are at or below it. NaN for no samples; `p` is clamped to 0–100 (0 gives the smallest).
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((Math.min(100, Math.max(0, p)) / 100) * sorted.length);
  return sorted[Math.max(0, rank - 1)]!;
}

export function latencySummary(values: readonly number[]): LatencySummary {
  return {
    n: values.length,
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    max: values.length === 0 ? Number.NaN : Math.max(...values),
  };
}
