import { IpRateLimiter } from '../../domain/rate-limits/ip-limit.js';
import { logger } from '../../logger.js';
import { provide } from '../container.js';
import { clock } from './clock.js';
import { ipRateCounter } from './ip-rate-counter.js';

/** One per container: it remembers the addresses it saw over their limit (shared/domain/rate-limits/ip-limit.ts). */
export const ipRateLimiter = provide(
  'ipRateLimiter',
  (c) =>
    new IpRateLimiter({
      counter: c.use(ipRateCounter),
      clock: c.use(clock),
      limit: c.config.ANONYMOUS_REQUESTS_PER_MINUTE,
      exempt: c.config.IP_RATE_LIMIT_EXEMPT,
      onCounterError: (error) =>
        logger.warn('per-IP rate limit counter unavailable; request let through', { error: error as Error }),
    }),
);
