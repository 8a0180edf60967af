/**
 * A contact's health, 0–100: how likely an e-mail to it is delivered and read. Computed when the contact is read
 * (recency decays with time), from its counters — human events only.
 *
 *   dead address (hard bounce, repeated transient bounces) or complaint  → 0
 *   never mailed                                                          → NEUTRAL (50)
 *   otherwise  delivery   DELIVERY_POINTS × (1 − min(transient bounces in 30 days, 3) / 3)
 *            + engagement ENGAGEMENT_POINTS × min(1, open rate / GOOD_OPEN_RATE × 0.6 + click rate / GOOD_CLICK_RATE × 0.4)
 *            + recency    RECENCY_POINTS × decay(days since the last human open or click)
 *   decay: 1 up to FRESH_DAYS, linear down to 0 at STALE_DAYS; 0 with no activity at all.
 *   Rates are e-mails opened (clicked) by a person / e-mails sent.
 *   With fewer than EVIDENCE_SENDS e-mails sent the result is pulled towards NEUTRAL in proportion (one unopened
 *   e-mail is little evidence): NEUTRAL + (score − NEUTRAL) × sent / EVIDENCE_SENDS.
 * Rounded to an integer. More opens or clicks never lower it; older activity never raises it.
 */
export const NEUTRAL = 50;
export const DELIVERY_POINTS = 30;
export const ENGAGEMENT_POINTS = 40;
export const RECENCY_POINTS = 30;
export const GOOD_OPEN_RATE = 0.4;
export const GOOD_CLICK_RATE = 0.1;
export const FRESH_DAYS = 7;
export const STALE_DAYS = 180;
export const EVIDENCE_SENDS = 3;

export interface HealthFigures {
  total_emails_sent: number;
  total_emails_opened: number;
  total_emails_clicked: number;
  hard_bounced?: boolean;
  complained?: boolean;
  transient_bounces_30d?: number;
  last_email_opened_at?: string | null;
  last_activity_at?: string | null;
}

export function healthScore(f: HealthFigures, now: Date): number {
  if (f.hard_bounced || f.complained) return 0;
  if (f.total_emails_sent <= 0) return NEUTRAL;
  const delivery = DELIVERY_POINTS * (1 - Math.min(f.transient_bounces_30d ?? 0, 3) / 3);
  const openRate = Math.min(1, f.total_emails_opened / f.total_emails_sent);
  const clickRate = Math.min(1, f.total_emails_clicked / f.total_emails_sent);
  const engagement = ENGAGEMENT_POINTS * Math.min(1, (openRate / GOOD_OPEN_RATE) * 0.6 + (clickRate / GOOD_CLICK_RATE) * 0.4);
  const last = [f.last_activity_at, f.last_email_opened_at].filter((t): t is string => !!t).map(Date.parse).filter((t) => !Number.isNaN(t));
  const recency = last.length === 0 ? 0 : RECENCY_POINTS * decay((now.getTime() - Math.max(...last)) / 86_400_000);
  const evidence = Math.min(1, f.total_emails_sent / EVIDENCE_SENDS);
  const score = NEUTRAL + (delivery + engagement + recency - NEUTRAL) * evidence;
  return Math.max(0, Math.min(100, Math.round(score)));
}

function decay(days: number): number {
  if (days <= FRESH_DAYS) return 1;
  if (days >= STALE_DAYS) return 0;
  return 1 - (days - FRESH_DAYS) / (STALE_DAYS - FRESH_DAYS);
}
