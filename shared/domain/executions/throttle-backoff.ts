import { MAX_QUEUE_DELAY_SECONDS } from '../../platform.js';

/** The first wait after SES's rate throttle; each further throttle of the same execution doubles it. */
export const THROTTLE_BASE_MS = 2_000;
/** The longest wait after a rate throttle: the rate frees up within seconds, the wait only spreads the retries. */
export const THROTTLE_CAP_MS = 300_000;
/**
 * After SES's daily quota: 10–15 minutes. AWS advises waiting up to 10 minutes; 15 is the longest a single SQS
 * delay holds, so the deferral stays one SendMessage (no schedule).
 */
export const DAILY_QUOTA_WAIT_MS = { min: 600_000, max: MAX_QUEUE_DELAY_SECONDS * 1000 } as const;

/**
 * How long a send SES throttled waits before it is tried again. `throttles`: how many times SES throttled this
 * execution before (0 the first time). Rate: an exponential backoff with "equal jitter" — half of min(cap, base ×
 * 2^n) fixed, half random — so executions throttled together do not come back together. Daily quota: a random
 * instant between 10 and 15 minutes. `random` in [0, 1).
 */
export function throttleBackoffMs(kind: 'rate' | 'daily_quota', throttles: number, random: () => number): number {
  if (kind === 'daily_quota')
    return Math.round(DAILY_QUOTA_WAIT_MS.min + (DAILY_QUOTA_WAIT_MS.max - DAILY_QUOTA_WAIT_MS.min) * random());
  const ceiling = Math.min(THROTTLE_CAP_MS, THROTTLE_BASE_MS * 2 ** Math.min(throttles, 20));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
