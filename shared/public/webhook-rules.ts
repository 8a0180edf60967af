/**
 * When each attempt of a webhook message is made, after the one before failed (Svix's schedule): now, 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 10 h — 8 attempts over about 27.6 hours. After the 8th the message is failed for that
 * endpoint and kept for replay.
 */
export const WEBHOOK_RETRY_DELAYS_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;

export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_SECONDS.length + 1;

/** An endpoint whose every attempt failed for this long is disabled, and its client told by e-mail. */
export const WEBHOOK_DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;

/** How long a rotated signing secret keeps signing beside the new one. */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** A wait as people read it in a schedule: `5 s`, `30 min`, `2 h`, `5 days` (whole units only, the largest that fits). */
export function waitText(seconds: number): string {
  if (seconds % 86_400 === 0) return seconds === 86_400 ? '1 day' : `${seconds / 86_400} days`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** The most characters of an endpoint's description. */
export const WEBHOOK_DESCRIPTION_MAX = 500;
