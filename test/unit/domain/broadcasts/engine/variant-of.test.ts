import { describe, expect, it } from 'vitest';
import { variantOf } from '../../../../../shared/domain/broadcasts/engine/variant-of.js';

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
