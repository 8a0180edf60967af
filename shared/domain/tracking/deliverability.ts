/**
 * A client's deliverability: its bounce and complaint rates and when its sending pauses.
 *
 * SES places an account under review at a bounce rate of 5 % or a complaint rate of 0.1 %, and may pause its sending
 * at 10 % / 0.5 % (Amazon SES Developer Guide, "Reputation metrics messages",
 * docs.aws.amazon.com/ses/latest/dg/reputationdashboardmessages.html). Every client sends through the one SES
 * account, so one client's bad list would stop every client's mail: a client is paused at the review thresholds
 * themselves, before SES acts, and warned at half of them.
 */
export const BOUNCE_RATE_LIMIT = 0.05;
export const COMPLAINT_RATE_LIMIT = 0.001;
/** Half the limits: `warning`, so the client can act before the pause. */
export const WARNING_SHARE = 0.5;

/** The rates cover the last DELIVERABILITY_WINDOW_SENDS sends or DELIVERABILITY_WINDOW_DAYS days, whichever is less. */
export const DELIVERABILITY_WINDOW_SENDS = 1000;
export const DELIVERABILITY_WINDOW_DAYS = 30;

/**
 * Below this many sends a bounce rate is not judged: 1 bounce in 10 sends is 10 % but says little, and a new client
 * would be paused by its first typo. At 200 a 5 % rate is 10 bounces — a pattern, not an accident (SES itself judges
 * over a "representative volume").
 */
export const MINIMUM_SAMPLE_SENDS = 200;
/**
 * The same reasoning for complaints needs a larger sample: one complaint in 200 sends is already 0.5 %, five times the
 * limit. From 1 000 sends one complaint is at most the limit itself.
 */
export const MINIMUM_COMPLAINT_SAMPLE_SENDS = 1000;

export interface DeliverabilityCounts {
  sends: number;
  bounces: number;
  complaints: number;
}

export type DeliverabilityStatus = 'healthy' | 'warning' | 'paused';

export interface DeliverabilityRates extends DeliverabilityCounts {
  /** Rounded to 5 decimals for display; the status is judged on the exact rates. */
  bounce_rate: number;
  complaint_rate: number;
  /** `paused` means "at or over a limit"; whether the client is paused is on its profile. */
  status: DeliverabilityStatus;
}

/** The client's rates and status over a window's counts (below a minimum sample a rate is shown, never judged). */
export function deliverabilityOf(counts: DeliverabilityCounts): DeliverabilityRates {
  const bounceRate = rate(counts.bounces, counts.sends);
  const complaintRate = rate(counts.complaints, counts.sends);
  const judgeBounces = counts.sends >= MINIMUM_SAMPLE_SENDS;
  const judgeComplaints = counts.sends >= MINIMUM_COMPLAINT_SAMPLE_SENDS;
  const reaches = (share: number) =>
    (judgeBounces && bounceRate >= BOUNCE_RATE_LIMIT * share) ||
    (judgeComplaints && complaintRate >= COMPLAINT_RATE_LIMIT * share);
  const status: DeliverabilityStatus = reaches(1) ? 'paused' : reaches(WARNING_SHARE) ? 'warning' : 'healthy';
  return { ...counts, bounce_rate: round(bounceRate), complaint_rate: round(complaintRate), status };
}

/** Whether the client's sending pauses: a rate at or over its limit, on a sample large enough to judge it. */
export function shouldPause(counts: DeliverabilityCounts): boolean {
  return deliverabilityOf(counts).status === 'paused';
}

/**
 * The window's counts from per-day counts, newest day first: whole days are added until DELIVERABILITY_WINDOW_SENDS
 * sends or DELIVERABILITY_WINDOW_DAYS days are reached. A large sender is judged on its recent mail (a bad import is
 * not diluted by a month of good sends); a small one on up to 30 days.
 */
export function deliverabilityWindow(daysNewestFirst: readonly DeliverabilityCounts[]): DeliverabilityCounts {
  const totals = { sends: 0, bounces: 0, complaints: 0 };
  for (const day of daysNewestFirst.slice(0, DELIVERABILITY_WINDOW_DAYS)) {
    totals.sends += day.sends;
    totals.bounces += day.bounces;
    totals.complaints += day.complaints;
    if (totals.sends >= DELIVERABILITY_WINDOW_SENDS) break;
  }
  return totals;
}

const rate = (events: number, sends: number) => (sends > 0 ? events / sends : 0);
const round = (r: number) => Math.round(r * 100_000) / 100_000;

/**
 * Transient bounces (mailbox full, greylisting, a server down) say the address may work later, so one never
 * suppresses; TRANSIENT_BOUNCES_TO_SUPPRESS of them within TRANSIENT_WINDOW_DAYS and the address is treated as dead,
 * as ESPs do (SES has already retried each of them for hours before reporting it).
 */
export const TRANSIENT_BOUNCES_TO_SUPPRESS = 3;
export const TRANSIENT_WINDOW_DAYS = 30;

/**
 * Whether the contact's transient bounces (ISO times, the newest included) suppress it at `now`: at least three
 * distinct times no older than 30 days. Later times count (the notification's clock may run ahead of ours).
 */
export function shouldSuppressAfterTransient(bounceTimes: readonly string[], now: Date): boolean {
  const from = now.getTime() - TRANSIENT_WINDOW_DAYS * 86_400_000;
  const recent = new Set(bounceTimes.map(Date.parse).filter((t) => !Number.isNaN(t) && t >= from));
  return recent.size >= TRANSIENT_BOUNCES_TO_SUPPRESS;
}
