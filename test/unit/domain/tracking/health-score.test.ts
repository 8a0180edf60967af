import { describe, expect, it } from 'vitest';
import { healthScore, NEUTRAL, type HealthFigures } from '../../../../shared/domain/tracking/health-score.js';

const NOW = new Date('2026-03-02T12:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();
const figures = (fields: Partial<HealthFigures> = {}): HealthFigures => ({
  total_emails_sent: 10,
  total_emails_opened: 4,
  total_emails_clicked: 1,
  last_activity_at: daysAgo(1),
  last_email_opened_at: daysAgo(1),
  ...fields,
});

describe('healthScore', () => {
  it.each([
    ['a contact never mailed', figures({ total_emails_sent: 0, total_emails_opened: 0, total_emails_clicked: 0, last_activity_at: null, last_email_opened_at: null }), NEUTRAL],
    ['a hard-bounced address', figures({ hard_bounced: true }), 0],
    ['a contact that complained', figures({ complained: true }), 0],
    ['a contact opening 40 % and clicking 10 %, active yesterday', figures(), 100],
    ['a contact that never opened ten e-mails', figures({ total_emails_opened: 0, total_emails_clicked: 0, last_activity_at: null, last_email_opened_at: null }), 30],
    ['the same engaged contact with two transient bounces this month', figures({ transient_bounces_30d: 2 }), 80],
    ['an engaged contact last active 180 days ago', figures({ last_activity_at: daysAgo(180), last_email_opened_at: daysAgo(180) }), 70],
  ])('scores %s', (_case, f, expected) => {
    expect(healthScore(f, NOW)).toBe(expected);
  });

  it('stays an integer between 0 and 100 and near neutral on little evidence', () => {
    const one = healthScore(figures({ total_emails_sent: 1, total_emails_opened: 0, total_emails_clicked: 0, last_activity_at: null, last_email_opened_at: null }), NOW);
    expect(Number.isInteger(one)).toBe(true);
    expect(one).toBeGreaterThan(30);
    expect(one).toBeLessThan(NEUTRAL);
  });

  it('never drops with more human opens or clicks', () => {
    let previous = -1;
    for (let opened = 0; opened <= 10; opened += 1) {
      const score = healthScore(figures({ total_emails_opened: opened, total_emails_clicked: Math.floor(opened / 2) }), NOW);
      expect(score).toBeGreaterThanOrEqual(previous);
      previous = score;
    }
  });

  it('never rises as the last activity gets older', () => {
    let previous = 101;
    for (const days of [0, 7, 8, 30, 90, 179, 180, 400]) {
      const score = healthScore(figures({ total_emails_opened: 1, total_emails_clicked: 0, last_activity_at: daysAgo(days), last_email_opened_at: daysAgo(days) }), NOW);
      expect(score).toBeLessThanOrEqual(previous);
      previous = score;
    }
  });
});
