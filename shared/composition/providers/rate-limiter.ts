import { RateLimiter } from '../../domain/rate-limits/rate-limiter.js';
import { logger } from '../../logger.js';
import { provide } from '../container.js';
import { clock } from './clock.js';
import { rateCounter } from './rate-counter.js';

/** One per container: it remembers the windows this container saw full (shared/domain/rate-limits/rate-limiter.ts). */
export const rateLimiter = provide(
  'rateLimiter',
  (c) =>
    new RateLimiter({
      counter: c.use(rateCounter),
      clock: c.use(clock),
      onCounterError: (error) =>
        logger.warn('rate limit counter unavailable; request let through', { error: error as Error }),
    }),
);
