import { describe, expect, it } from 'vitest';
import { throttleBackoffMs } from '../../../../shared/domain/executions/throttle-backoff.js';

describe('throttleBackoffMs', () => {
  it.each([
    { throttles: 0, low: 1_000, high: 2_000 },
    { throttles: 1, low: 2_000, high: 4_000 },
    { throttles: 4, low: 16_000, high: 32_000 },
    { throttles: 7, low: 128_000, high: 256_000 },
    { throttles: 8, low: 150_000, high: 300_000 },
    { throttles: 1_000, low: 150_000, high: 300_000 },
  ])('waits $low–$high ms after $throttles earlier rate throttles', ({ throttles, low, high }) => {
    expect(throttleBackoffMs('rate', throttles, () => 0)).toBe(low);
    expect(throttleBackoffMs('rate', throttles, () => 0.999_999)).toBeCloseTo(high, -1);
  });

  it('waits 10–15 minutes after the daily quota, within one SQS delay, whatever the count', () => {
    expect(throttleBackoffMs('daily_quota', 0, () => 0)).toBe(600_000);
    expect(throttleBackoffMs('daily_quota', 9, () => 0.999_999)).toBeLessThanOrEqual(900_000);
  });

  it('spreads executions throttled together over the window', () => {
    const waits = [0.1, 0.5, 0.9].map((r) => throttleBackoffMs('rate', 2, () => r));
    expect(new Set(waits).size).toBe(3);
    expect(waits.every((w) => w >= 4_000 && w < 8_000)).toBe(true);
  });
});
