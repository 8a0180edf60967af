/**
 * The deliverability guard's thresholds (issue 9 §4). SES reviews an account whose bounce rate reaches 5 % or whose
 * complaint rate reaches 0.1 %, and may pause its sending (docs.aws.amazon.com/ses/latest/dg/faqs-enforcement.html,
 * "What are the bounce and complaint rates…"): on a shared account one client's bad list would stop every client's
 * mail, so a client is paused at those rates itself.
 */
export const BOUNCE_RATE_LIMIT = 0.05;
export const COMPLAINT_RATE_LIMIT = 0.001;
/** The window the rates cover (the counters hold UTC days). */
export const DELIVERABILITY_WINDOW_DAYS = 30;
export const DELIVERABILITY_WINDOW_SENDS = 1000;
/**
 * Below this many sends in the window the rates are not judged: 1 bounce in 10 sends is 10 % but says little, and a
 * new client would be paused by its first typo. SES itself judges rates over a "representative volume".
 */
export const MINIMUM_SAMPLE_SENDS = 200;
/** Half the limits: shown as `warning` so the client can act before the pause. */
export const WARNING_SHARE = 0.5;

export interface DeliverabilityCounts {
  sends: number;
  bounces: number;
  complaints: number;
}

export interface DeliverabilityRates extends DeliverabilityCounts {
  bounce_rate: number;
  complaint_rate: number;
  /** `paused` here means "over the limits"; whether the client is paused is on its profile. */
  status: 'healthy' | 'warning' | 'paused';
}

const round = (rate: number) => Math.round(rate * 100_000) / 100_000;

export function deliverabilityOf(counts: DeliverabilityCounts): DeliverabilityRates {
  const bounce_rate = counts.sends > 0 ? round(counts.bounces / counts.sends) : 0;
  const complaint_rate = counts.sends > 0 ? round(counts.complaints / counts.sends) : 0;
  let status: DeliverabilityRates['status'] = 'healthy';
  if (counts.sends >= MINIMUM_SAMPLE_SENDS) {
    if (bounce_rate >= BOUNCE_RATE_LIMIT || complaint_rate >= COMPLAINT_RATE_LIMIT) status = 'paused';
    else if (bounce_rate >= BOUNCE_RATE_LIMIT * WARNING_SHARE || complaint_rate >= COMPLAINT_RATE_LIMIT * WARNING_SHARE) status = 'warning';
  }
  return { ...counts, bounce_rate, complaint_rate, status };
}

/** Over a limit on a sample large enough to judge. */
export const shouldPause = (rates: Pick<DeliverabilityRates, 'sends' | 'bounce_rate' | 'complaint_rate'>): boolean =>
  rates.sends >= MINIMUM_SAMPLE_SENDS && (rates.bounce_rate >= BOUNCE_RATE_LIMIT || rates.complaint_rate >= COMPLAINT_RATE_LIMIT);

/**
 * Transient bounces (mailbox full, greylisting, a server down) say the address may work later, so one never
 * suppresses; the same address bouncing transiently three times within 30 days is treated as dead, as ESPs do
 * (each retry costs reputation and SES keeps retrying a soft bounce for hours on its own).
 */
export const TRANSIENT_BOUNCES_TO_SUPPRESS = 3;
export const TRANSIENT_WINDOW_DAYS = 30;

export function shouldSuppressAfterTransient(bounceTimes: readonly string[], now: Date): boolean {
  const from = now.getTime() - TRANSIENT_WINDOW_DAYS * 86_400_000;
  return bounceTimes.filter((t) => Date.parse(t) >= from).length >= TRANSIENT_BOUNCES_TO_SUPPRESS;
}
