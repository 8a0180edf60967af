import { describe, expect, it } from 'vitest';
import { latencySummary, percentile } from '../../../../scripts/bench/percentiles.js';

describe('bench percentiles (nearest rank)', () => {
  it('picks the smallest sample with at least p % of the samples at or below it, whatever the order', () => {
    const values = [50, 10, 40, 20, 30, 100, 90, 60, 80, 70];
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 95)).toBe(100);
    expect(percentile(values, 90)).toBe(90);
    expect(percentile(values, 10)).toBe(10);
    expect(percentile(values, 0)).toBe(10);
    expect(percentile(values, 100)).toBe(100);
    expect(values[0]).toBe(50); // the input is not sorted in place
  });

  it('answers the one sample for any p, and NaN without samples', () => {
    expect(percentile([7], 50)).toBe(7);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it('summarizes count, p50, p95 and max', () => {
    const values = Array.from({ length: 200 }, (_, i) => i + 1);
    expect(latencySummary(values)).toEqual({ n: 200, p50: 100, p95: 190, max: 200 });
    expect(latencySummary([]).n).toBe(0);
  });
});
