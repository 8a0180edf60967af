/**
 * When each attempt of a webhook message is made, after the one before failed (issue 22 §3, Svix's schedule):
 * now, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h — 8 attempts over about 27.6 hours. After the 8th the message is
 * failed for that endpoint and kept for replay.
 */
export const WEBHOOK_RETRY_DELAYS_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;

export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_SECONDS.length + 1;

/** An endpoint whose every attempt failed for this long is disabled, and its client told by e-mail. */
export const WEBHOOK_DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;

/**
 * Seconds to wait before attempt `attempt + 1`; undefined when `attempt` was the last. `schedule` replaces the
 * default waits (config WEBHOOK_RETRY_SCHEDULE_SECONDS, demos and tests).
 */
export const retryDelayAfter = (attempt: number, schedule: readonly number[] = WEBHOOK_RETRY_DELAYS_SECONDS): number | undefined =>
  schedule[attempt - 1];
