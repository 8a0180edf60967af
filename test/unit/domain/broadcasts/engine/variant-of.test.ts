import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { placementOf, variantOf } from '../../../../../shared/domain/broadcasts/engine/variant-of.js';

describe('variantOf', () => {
  it('gives every contact variant 0 of a single-content broadcast', () => {
    expect([1, 2, 3, 99_999].map((c) => variantOf(5, c, 1))).toEqual([0, 0, 0, 0]);
  });

  it('draws the same variant for the same broadcast and contact, every time', () => {
    const first = Array.from({ length: 50 }, (_, c) => variantOf(12, c, 3));
    const again = Array.from({ length: 50 }, (_, c) => variantOf(12, c, 3));
    expect(again).toEqual(first);
  });

  it.each([2, 3, 4])('splits 10,000 contacts into %i shares within ±2 %%', (variants) => {
    // Prepare
    const counts = new Array<number>(variants).fill(0);
    // Act
    for (let contact = 1; contact <= 10_000; contact++) counts[variantOf(77, contact, variants)]! += 1;
    // Assess
    for (const count of counts) expect(Math.abs(count / 10_000 - 1 / variants)).toBeLessThan(0.02);
  });

  it('refuses a broadcast without content', () => {
    expect(() => variantOf(1, 1, 0)).toThrow(RangeError);
  });
});

describe('placementOf', () => {
  /** Within 5 standard deviations of a fair draw of `n` with chance `p` (a hash is not a coin, but it is close). */
  const fair = (count: number, n: number, p: number) =>
    expect(Math.abs(count - n * p)).toBeLessThanOrEqual(5 * Math.sqrt(n * p * (1 - p)) + 1);

  it('puts every contact in exactly one of the variants or the holdouts, the same one every time, in fair shares', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99_999_999 }),
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 5, max: 50 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        (broadcastId, variants, testPercent, firstContact) => {
          const n = 10_000;
          const perVariant = new Array<number>(variants).fill(0);
          let holdouts = 0;
          let misplaced = 0;
          for (let contact = firstContact; contact < firstContact + n; contact++) {
            const placed = placementOf(broadcastId, contact, variants, testPercent);
            const again = placementOf(broadcastId, contact, variants, testPercent);
            if ('holdout' in placed) {
              if (!('holdout' in again) || 'variant' in placed) misplaced += 1;
              holdouts += 1;
            } else {
              const ok = Number.isInteger(placed.variant) && placed.variant >= 0 && placed.variant < variants;
              if (!ok || 'holdout' in placed || !('variant' in again) || again.variant !== placed.variant)
                misplaced += 1;
              else perVariant[placed.variant]! += 1;
            }
          }
          expect(misplaced).toBe(0);
          expect(holdouts + perVariant.reduce((a, b) => a + b, 0)).toBe(n);
          fair(n - holdouts, n, testPercent / 100);
          for (const count of perVariant) fair(count, n, testPercent / 100 / variants);
        },
      ),
      { numRuns: 20 },
    );
    // 200,000 placements: about a second alone, longer on a machine shared with the integration suites.
  }, 30_000);

  it('without a test every contact gets its variantOf, none held out', () => {
    for (let contact = 1; contact <= 200; contact++) {
      expect(placementOf(9, contact, 1, undefined)).toEqual({ variant: 0 });
      expect(placementOf(9, contact, 3, undefined)).toEqual({ variant: variantOf(9, contact, 3) });
    }
  });

  it('refuses a share that is no percentage', () => {
    expect(() => placementOf(1, 1, 2, 0)).toThrow(RangeError);
    expect(() => placementOf(1, 1, 2, 101)).toThrow(RangeError);
  });
});
