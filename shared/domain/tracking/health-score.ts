import { TRANSIENT_BOUNCES_TO_SUPPRESS } from './deliverability.js';

/**
 * A contact's health, an integer 0–100: how likely an e-mail to it is delivered and read. Computed when the contact is
 * read (recency decays with time), from its counters — human opens and clicks only (bot-detection.ts).
 *
 *   hard bounce or complaint                                   → 0
 *   never mailed (sent ≤ 0)                                    → NEUTRAL = 50
 *   otherwise, with sent = total_emails_sent:
 *     delivery   = DELIVERY_POINTS (30) × delivered share × (1 − min(transient bounces in 30 days, 3) / 3)
 *                  delivered share = total_emails_delivered / sent, capped at 1 (1 when not given)
 *     engagement = ENGAGEMENT_POINTS (40) × min(1, OPEN_WEIGHT (0.4) × open rate / GOOD_OPEN_RATE (0.4)
 *                                                + CLICK_WEIGHT (0.6) × click rate / GOOD_CLICK_RATE (0.1))
 *                  open rate = total_emails_opened / sent, click rate = total_emails_clicked / sent, each capped at 1
 *     recency    = RECENCY_POINTS (30) × decay(days since the later of last_activity_at and last_email_opened_at)
 *                  decay = 1 up to FRESH_DAYS (7), linear down to 0 at STALE_DAYS (180); 0 with no activity at all
 *     raw        = delivery + engagement + recency                              (0–100)
 *     score      = NEUTRAL + (raw − NEUTRAL) × min(1, sent / EVIDENCE_SENDS (3))  — little evidence stays near 50
 *   rounded to the nearest integer.
 *
 * So a contact opening 40 % and clicking 10 % of its e-mails, active this week, scores 100; one that never opened ten
 * e-mails scores 30. Clicks weigh more than opens (a click is deliberate; an open may be a preview pane). Each part
 * only grows with its own figure: more opens or clicks never lower the score, older activity never raises it.
 */
export const NEUTRAL = 50;
export const DELIVERY_POINTS = 30;
export const ENGAGEMENT_POINTS = 40;
export const RECENCY_POINTS = 30;
export const OPEN_WEIGHT = 0.4;
export const CLICK_WEIGHT = 0.6;
export const GOOD_OPEN_RATE = 0.4;
export const GOOD_CLICK_RATE = 0.1;
export const FRESH_DAYS = 7;
export const STALE_DAYS = 180;
export const EVIDENCE_SENDS = 3;

const DAY_MS = 86_400_000;

export interface HealthFigures {
  total_emails_sent: number;
  total_emails_delivered?: number;
  total_emails_opened: number;
  total_emails_clicked: number;
  hard_bounced?: boolean;
  complained?: boolean;
  transient_bounces_30d?: number;
  last_email_opened_at?: string | null;
  last_activity_at?: string | null;
}

/** The contact's health at `now` (deterministic: the same figures and instant give the same score). */
export function healthScore(f: HealthFigures, now: Date): number {
  if (f.hard_bounced || f.complained) return 0;
  const sent = count(f.total_emails_sent);
  if (sent === 0) return NEUTRAL;
  const share = (n: number) => Math.min(1, count(n) / sent);

  const delivered = f.total_emails_delivered === undefined ? 1 : share(f.total_emails_delivered);
  const transient = Math.min(count(f.transient_bounces_30d ?? 0), TRANSIENT_BOUNCES_TO_SUPPRESS);
  const delivery = DELIVERY_POINTS * delivered * (1 - transient / TRANSIENT_BOUNCES_TO_SUPPRESS);

  const opens = (OPEN_WEIGHT * share(f.total_emails_opened)) / GOOD_OPEN_RATE;
  const clicks = (CLICK_WEIGHT * share(f.total_emails_clicked)) / GOOD_CLICK_RATE;
  const engagement = ENGAGEMENT_POINTS * Math.min(1, opens + clicks);

  const last = lastActivity(f);
  const recency = last === undefined ? 0 : RECENCY_POINTS * decay((now.getTime() - last) / DAY_MS);

  const evidence = Math.min(1, sent / EVIDENCE_SENDS);
  const score = NEUTRAL + (delivery + engagement + recency - NEUTRAL) * evidence;
  return Math.max(0, Math.min(100, Math.round(score)));
}

/** A counter as a non-negative number (a missing or corrupt counter counts as 0). */
const count = (n: number) => (Number.isFinite(n) && n > 0 ? n : 0);

function lastActivity(f: HealthFigures): number | undefined {
  const times = [f.last_activity_at, f.last_email_opened_at]
    .map((t) => (t ? Date.parse(t) : NaN))
    .filter((t) => !Number.isNaN(t));
  return times.length === 0 ? undefined : Math.max(...times);
}

function decay(days: number): number {
  if (days <= FRESH_DAYS) return 1;
  if (days >= STALE_DAYS) return 0;
  return 1 - (days - FRESH_DAYS) / (STALE_DAYS - FRESH_DAYS);
}
