import { WEBHOOK_RETRY_DELAYS_SECONDS } from '../../public/webhook-rules.js';

export {
  WEBHOOK_DISABLE_AFTER_MS,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_SECONDS,
} from '../../public/webhook-rules.js';

/**
 * Seconds to wait before attempt `attempt + 1`; undefined when `attempt` was the last. `schedule` replaces the
 * default waits (config WEBHOOK_RETRY_SCHEDULE_SECONDS, demos and tests).
 */
export const retryDelayAfter = (
  attempt: number,
  schedule: readonly number[] = WEBHOOK_RETRY_DELAYS_SECONDS,
): number | undefined => schedule[attempt - 1];
