import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  healthScore,
  NEUTRAL,
  STALE_DAYS,
  type HealthFigures,
} from '../../../../shared/domain/tracking/health-score.js';

const NOW = new Date('2026-03-02T12:00:00.000Z');
const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY_MS).toISOString();
/** An engaged contact: ten e-mails, 40 % opened, 10 % clicked, active yesterday (100 points). */
const figures = (fields: Partial<HealthFigures> = {}): HealthFigures => ({
  total_emails_sent: 10,
  total_emails_opened: 4,
  total_emails_clicked: 1,
  last_activity_at: daysAgo(1),
  last_email_opened_at: daysAgo(1),
  ...fields,
});
const silent = { total_emails_opened: 0, total_emails_clicked: 0, last_activity_at: null, last_email_opened_at: null };

describe('healthScore', () => {
  it.each([
    ['a contact never mailed', figures({ total_emails_sent: 0, ...silent }), NEUTRAL],
    ['a contact never mailed, whatever its other figures', figures({ total_emails_sent: 0 }), NEUTRAL],
    ['a hard-bounced address', figures({ hard_bounced: true }), 0],
    ['a contact that complained', figures({ complained: true }), 0],
    ['a contact opening 40 % and clicking 10 %, active yesterday', figures(), 100],
    ['a contact opening and clicking everything', figures({ total_emails_opened: 10, total_emails_clicked: 10 }), 100],
    ['a contact that never opened ten e-mails', figures(silent), 30],
    ['8 of 10 e-mails delivered', figures({ total_emails_delivered: 8 }), 94],
    ['more deliveries than sends (capped)', figures({ total_emails_delivered: 12 }), 100],
    ['two transient bounces this month', figures({ transient_bounces_30d: 2 }), 80],
    ['three or more transient bounces this month', figures({ transient_bounces_30d: 5 }), 70],
    ['opens only, at the good open rate', figures({ total_emails_clicked: 0 }), 76],
    ['clicks only, at the good click rate', figures({ total_emails_opened: 0 }), 84],
    [
      'last active 7 days ago (still fresh)',
      figures({ last_activity_at: daysAgo(7), last_email_opened_at: daysAgo(7) }),
      100,
    ],
    [
      'last active 93.5 days ago (half way)',
      figures({ last_activity_at: daysAgo(93.5), last_email_opened_at: daysAgo(93.5) }),
      85,
    ],
    [
      'last active 180 days ago',
      figures({ last_activity_at: daysAgo(STALE_DAYS), last_email_opened_at: daysAgo(STALE_DAYS) }),
      70,
    ],
    [
      'the later of its two activity times',
      figures({ last_activity_at: daysAgo(1), last_email_opened_at: daysAgo(400) }),
      100,
    ],
    [
      'activity stamped in the future (clock skew)',
      figures({ last_activity_at: daysAgo(-1), last_email_opened_at: null }),
      100,
    ],
    ['an unreadable activity time', figures({ last_activity_at: 'yesterday', last_email_opened_at: null }), 70],
    ['one e-mail, not opened (pulled towards 50)', figures({ total_emails_sent: 1, ...silent }), 43],
    [
      'two e-mails, both opened and clicked today',
      figures({ total_emails_sent: 2, total_emails_opened: 2, total_emails_clicked: 2 }),
      83,
    ],
    [
      'corrupt counters (read as 0)',
      figures({ total_emails_opened: Number.NaN, total_emails_clicked: -3, transient_bounces_30d: -1 }),
      60,
    ],
  ])('scores %s', (_case, f, expected) => {
    expect(healthScore(f, NOW)).toBe(expected);
  });

  const counts = fc.record({
    sent: fc.integer({ min: 0, max: 500 }),
    delivered: fc.option(fc.integer({ min: 0, max: 500 }), { nil: undefined }),
    opened: fc.integer({ min: 0, max: 500 }),
    clicked: fc.integer({ min: 0, max: 500 }),
    transient: fc.integer({ min: 0, max: 5 }),
    days: fc.option(fc.double({ min: -2, max: 400, noNaN: true }), { nil: undefined }),
  });
  const build = (c: {
    sent: number;
    delivered?: number;
    opened: number;
    clicked: number;
    transient: number;
    days?: number;
  }): HealthFigures => ({
    total_emails_sent: c.sent,
    ...(c.delivered === undefined ? {} : { total_emails_delivered: c.delivered }),
    total_emails_opened: c.opened,
    total_emails_clicked: c.clicked,
    transient_bounces_30d: c.transient,
    last_activity_at: c.days === undefined ? null : daysAgo(c.days),
  });

  it('is always an integer between 0 and 100', () => {
    fc.assert(
      fc.property(counts, (c) => {
        const score = healthScore(build(c), NOW);
        expect(Number.isInteger(score)).toBe(true);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(100);
      }),
    );
  });

  it('never drops with more human opens or clicks', () => {
    fc.assert(
      fc.property(
        counts,
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 50 }),
        (c, moreClicks, moreOpens) => {
          const before = healthScore(build(c), NOW);
          expect(healthScore(build({ ...c, clicked: c.clicked + moreClicks }), NOW)).toBeGreaterThanOrEqual(before);
          expect(
            healthScore(build({ ...c, opened: c.opened + moreOpens, clicked: c.clicked + moreClicks }), NOW),
          ).toBeGreaterThanOrEqual(before);
        },
      ),
    );
  });

  it('never rises as the last activity gets older', () => {
    fc.assert(
      fc.property(counts, fc.double({ min: 0, max: 400, noNaN: true }), (c, older) => {
        const days = c.days ?? 0;
        const recent = healthScore(build({ ...c, days }), NOW);
        expect(healthScore(build({ ...c, days: days + older }), NOW)).toBeLessThanOrEqual(recent);
        expect(healthScore(build({ ...c, days: undefined }), NOW)).toBeLessThanOrEqual(recent);
      }),
    );
  });

  it('gives the same score for the same figures and instant', () => {
    const f = figures({ last_activity_at: daysAgo(42) });
    expect(healthScore(f, new Date(NOW))).toBe(healthScore(f, new Date(NOW)));
  });
});
