import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { highestRateIndex, rateOf } from '../../../../shared/domain/stats/highest-rate.js';

describe('highestRateIndex', () => {
  it('picks the highest count per base, compared exactly', () => {
    expect(
      highestRateIndex([
        { count: 1, base: 3 },
        { count: 2, base: 5 },
      ]),
    ).toBe(1);
    // 1/3 and 333333/1000000 round alike at 4 decimals; the exact comparison still tells them apart.
    expect(
      highestRateIndex([
        { count: 333_333, base: 1_000_000 },
        { count: 1, base: 3 },
      ]),
    ).toBe(1);
  });

  it('a tie, and no data at all, go to the first', () => {
    expect(
      highestRateIndex([
        { count: 2, base: 4 },
        { count: 1, base: 2 },
      ]),
    ).toBe(0);
    expect(
      highestRateIndex([
        { count: 0, base: 0 },
        { count: 0, base: 0 },
        { count: 0, base: 0 },
      ]),
    ).toBe(0);
    expect(
      highestRateIndex([
        { count: 0, base: 10 },
        { count: 0, base: 7 },
      ]),
    ).toBe(0);
  });

  it('a candidate with no base has a rate of 0: any positive rate beats it, and it beats nothing', () => {
    expect(
      highestRateIndex([
        { count: 0, base: 0 },
        { count: 1, base: 10 },
      ]),
    ).toBe(1);
    expect(
      highestRateIndex([
        { count: 1, base: 10 },
        { count: 5, base: 0 },
      ]),
    ).toBe(0);
  });

  it('the winner has the highest rate, and no earlier candidate has the same', () => {
    const row = fc.record({ count: fc.nat(1000), base: fc.nat(1000) });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 6 }), (rows) => {
        const rate = (r: { count: number; base: number }) => (r.base > 0 ? r.count / r.base : 0);
        const i = highestRateIndex(rows);
        const top = Math.max(...rows.map(rate));
        expect(rate(rows[i]!)).toBe(top);
        expect(rows.slice(0, i).every((r) => rate(r) < top)).toBe(true);
      }),
    );
  });

  it('rateOf shows 4 decimals, 0 without a base', () => {
    expect(rateOf(1, 3)).toBe(0.3333);
    expect(rateOf(4, 0)).toBe(0);
  });
});
