import { describe, expect, it } from 'vitest';
import {
  deliverabilityOf,
  MINIMUM_SAMPLE_SENDS,
  shouldPause,
  shouldSuppressAfterTransient,
} from '../../../../shared/domain/tracking/deliverability.js';

describe('deliverabilityOf and shouldPause: SES review thresholds (bounce 5 %, complaint 0.1 %)', () => {
  it.each([
    ['no sends', { sends: 0, bounces: 0, complaints: 0 }, 'healthy', false],
    ['a bounce rate just below 5 %', { sends: 1000, bounces: 49, complaints: 0 }, 'warning', false],
    ['a bounce rate of 5 %', { sends: 1000, bounces: 50, complaints: 0 }, 'paused', true],
    ['a complaint rate just below 0.1 %', { sends: 10_000, bounces: 0, complaints: 9 }, 'warning', false],
    ['a complaint rate of 0.1 %', { sends: 1000, bounces: 0, complaints: 1 }, 'paused', true],
    ['half the bounce limit', { sends: 1000, bounces: 25, complaints: 0 }, 'warning', false],
    ['a quarter of the bounce limit', { sends: 1000, bounces: 12, complaints: 0 }, 'healthy', false],
    ['50 % bounces below the minimum sample', { sends: MINIMUM_SAMPLE_SENDS - 1, bounces: 100, complaints: 5 }, 'healthy', false],
    ['6 % bounces at the minimum sample', { sends: MINIMUM_SAMPLE_SENDS, bounces: 12, complaints: 0 }, 'paused', true],
  ])('%s → %s', (_case, counts, status, pause) => {
    const rates = deliverabilityOf(counts);
    expect(rates.status).toBe(status);
    expect(shouldPause(rates)).toBe(pause);
    expect(rates.bounce_rate).toBe(counts.sends ? Math.round((counts.bounces / counts.sends) * 100_000) / 100_000 : 0);
  });
});

describe('shouldSuppressAfterTransient: three transient bounces within 30 days', () => {
  const now = new Date('2026-03-31T12:00:00.000Z');
  it.each([
    ['two bounces', ['2026-03-20T00:00:00.000Z', '2026-03-30T00:00:00.000Z'], false],
    ['three bounces this month', ['2026-03-05T00:00:00.000Z', '2026-03-20T00:00:00.000Z', '2026-03-30T00:00:00.000Z'], true],
    ['three bounces, one older than 30 days', ['2026-02-28T00:00:00.000Z', '2026-03-20T00:00:00.000Z', '2026-03-30T00:00:00.000Z'], false],
  ])('%s → %s', (_case, times, suppress) => {
    expect(shouldSuppressAfterTransient(times, now)).toBe(suppress);
  });
});
