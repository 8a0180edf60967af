import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { quotaDayOf, quotaMonthOf, quotaResetAt } from '../../../../shared/domain/settings/quota-period.js';

/** The UTC labels without luxon give luxon's strings for every instant. */
describe('quota periods', () => {
  const instants = fc.date({
    min: new Date('1970-01-01T00:00:00.000Z'),
    max: new Date('2999-12-31T23:59:59.999Z'),
    noInvalidDate: true,
  });

  it('labels the UTC month and day, and the next month start, as luxon does', () => {
    fc.assert(
      fc.property(instants, (at) => {
        const utc = DateTime.fromJSDate(at, { zone: 'utc' });
        expect(quotaMonthOf(at)).toBe(utc.toFormat('yyyy-MM'));
        expect(quotaDayOf(at)).toBe(utc.toFormat('yyyy-MM-dd'));
        expect(quotaResetAt(at)).toBe(utc.startOf('month').plus({ months: 1 }).toUTC().toISO());
      }),
      { numRuns: 2000, seed: 11 },
    );
  });

  it.each([
    ['2026-12-31T23:59:59.999Z', '2026-12', '2026-12-31', '2027-01-01T00:00:00.000Z'],
    ['2028-02-29T12:00:00.000Z', '2028-02', '2028-02-29', '2028-03-01T00:00:00.000Z'],
    ['2026-11-22T00:00:00.000Z', '2026-11', '2026-11-22', '2026-12-01T00:00:00.000Z'],
  ])('%s → %s, %s, resets %s', (iso, month, day, reset) => {
    const at = new Date(iso);
    expect([quotaMonthOf(at), quotaDayOf(at), quotaResetAt(at)]).toEqual([month, day, reset]);
  });
});
