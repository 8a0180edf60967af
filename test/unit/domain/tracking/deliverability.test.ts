import { describe, expect, it } from 'vitest';
import {
  deliverabilityOf,
  deliverabilityWindow,
  DELIVERABILITY_WINDOW_DAYS,
  DELIVERABILITY_WINDOW_SENDS,
  MINIMUM_COMPLAINT_SAMPLE_SENDS,
  MINIMUM_SAMPLE_SENDS,
  shouldPause,
  shouldSuppressAfterTransient,
} from '../../../../shared/domain/tracking/deliverability.js';

describe('deliverabilityOf and shouldPause: SES review thresholds (bounce 5 %, complaint 0.1 %), warning at half', () => {
  it.each([
    ['no sends', { sends: 0, bounces: 0, complaints: 0 }, 'healthy'],
    ['a clean month', { sends: 5000, bounces: 10, complaints: 0 }, 'healthy'],
    ['a bounce rate just below half the limit', { sends: 1000, bounces: 24, complaints: 0 }, 'healthy'],
    ['a bounce rate of half the limit', { sends: 1000, bounces: 25, complaints: 0 }, 'warning'],
    ['a bounce rate just below 5 %', { sends: 1000, bounces: 49, complaints: 0 }, 'warning'],
    ['a bounce rate of 5 %', { sends: 1000, bounces: 50, complaints: 0 }, 'paused'],
    ['a bounce rate of 5 % on a large sample', { sends: 200_000, bounces: 10_000, complaints: 0 }, 'paused'],
    [
      'a bounce rate a hair below 5 % (no rounding up)',
      { sends: 1_000_000, bounces: 49_999, complaints: 0 },
      'warning',
    ],
    ['a complaint rate just below half the limit', { sends: 10_000, bounces: 0, complaints: 4 }, 'healthy'],
    ['a complaint rate of half the limit', { sends: 10_000, bounces: 0, complaints: 5 }, 'warning'],
    ['a complaint rate just below 0.1 %', { sends: 10_000, bounces: 0, complaints: 9 }, 'warning'],
    ['a complaint rate of 0.1 %', { sends: 10_000, bounces: 0, complaints: 10 }, 'paused'],
    [
      'one complaint at the complaint sample',
      { sends: MINIMUM_COMPLAINT_SAMPLE_SENDS, bounces: 0, complaints: 1 },
      'paused',
    ],
    ['one complaint below the complaint sample (0.5 %)', { sends: 200, bounces: 0, complaints: 1 }, 'healthy'],
    ['complaints below the complaint sample, bounces judged', { sends: 999, bounces: 50, complaints: 3 }, 'paused'],
    [
      '50 % bounces below the minimum sample',
      { sends: MINIMUM_SAMPLE_SENDS - 1, bounces: 100, complaints: 5 },
      'healthy',
    ],
    ['5 % bounces at the minimum sample', { sends: MINIMUM_SAMPLE_SENDS, bounces: 10, complaints: 0 }, 'paused'],
    ['1 bounce out of 10', { sends: 10, bounces: 1, complaints: 0 }, 'healthy'],
  ])('%s → %s', (_case, counts, status) => {
    // Act
    const rates = deliverabilityOf(counts);
    // Assess
    expect(rates).toEqual({
      ...counts,
      bounce_rate: counts.sends ? Math.round((counts.bounces / counts.sends) * 100_000) / 100_000 : 0,
      complaint_rate: counts.sends ? Math.round((counts.complaints / counts.sends) * 100_000) / 100_000 : 0,
      status,
    });
    expect(shouldPause(counts)).toBe(status === 'paused');
  });

  it('judges the counts of the figures it is given, not their status', () => {
    const figures = { ...deliverabilityOf({ sends: 400, bounces: 20, complaints: 0 }), status: 'healthy' as const };
    expect(shouldPause(figures)).toBe(true);
  });
});

describe('deliverabilityWindow: the last 1 000 sends or 30 days, in whole days', () => {
  const day = (sends: number, bounces = 0, complaints = 0) => ({ sends, bounces, complaints });

  it('stops at the day that reaches 1 000 sends', () => {
    expect(deliverabilityWindow([day(600, 30), day(500, 1), day(5000, 5)])).toEqual(day(1100, 31));
  });

  it('judges a large sender on today alone', () => {
    expect(deliverabilityWindow([day(20_000, 1200, 3), day(20_000)])).toEqual(day(20_000, 1200, 3));
  });

  it('takes at most 30 days of a small sender', () => {
    const days = Array.from({ length: DELIVERABILITY_WINDOW_DAYS + 5 }, () => day(10, 1));
    expect(deliverabilityWindow(days)).toEqual(day(10 * DELIVERABILITY_WINDOW_DAYS, DELIVERABILITY_WINDOW_DAYS));
  });

  it('is empty without days', () => {
    expect(deliverabilityWindow([])).toEqual(day(0));
    expect(DELIVERABILITY_WINDOW_SENDS).toBe(1000);
  });
});

describe('shouldSuppressAfterTransient: three transient bounces within 30 days', () => {
  const now = new Date('2026-03-31T12:00:00.000Z');
  const THIRTY_DAYS_AGO = '2026-03-01T12:00:00.000Z';
  it.each([
    ['no bounce', [], false],
    ['two bounces', ['2026-03-20T00:00:00.000Z', '2026-03-30T00:00:00.000Z'], false],
    [
      'three bounces this month',
      ['2026-03-05T00:00:00.000Z', '2026-03-20T00:00:00.000Z', '2026-03-30T00:00:00.000Z'],
      true,
    ],
    [
      'three bounces, the oldest exactly 30 days ago',
      [THIRTY_DAYS_AGO, '2026-03-20T00:00:00.000Z', '2026-03-30T00:00:00.000Z'],
      true,
    ],
    [
      'three bounces, the oldest 30 days and 1 ms ago',
      ['2026-03-01T11:59:59.999Z', '2026-03-20T00:00:00.000Z', '2026-03-30T00:00:00.000Z'],
      false,
    ],
    [
      'three bounces, the newest stamped a moment after now',
      ['2026-03-05T00:00:00.000Z', '2026-03-20T00:00:00.000Z', '2026-03-31T12:00:00.200Z'],
      true,
    ],
    [
      'the same bounce three times (a redelivered notification)',
      ['2026-03-30T00:00:00.000Z', '2026-03-30T00:00:00.000Z', '2026-03-30T00:00:00.000Z'],
      false,
    ],
    ['two bounces and an unreadable time', ['2026-03-20T00:00:00.000Z', '2026-03-30T00:00:00.000Z', 'soon'], false],
  ])('%s → %s', (_case, times, suppress) => {
    expect(shouldSuppressAfterTransient(times, now)).toBe(suppress);
  });
});
