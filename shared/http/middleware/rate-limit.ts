import { rateLimited } from '../../errors.js';
import type { RateLimiter } from '../../domain/rate-limits/rate-limiter.js';
import type { RatePolicyName } from '../../domain/rate-limits/rate-policy.js';
import { rateLimitHeaders } from '../rate-limit-headers.js';
import type { ApiMiddleware } from './types.js';

/**
 * Counts the authenticated request against its client's `policy` (after the guard, before the body is read, so a
 * flood of bad bodies is counted too). The RateLimit fields go on whatever the request answers; over the limit it
 * answers 429 `rate_limited` with Retry-After.
 */
export function rateLimit(getLimiter: () => RateLimiter, policy: RatePolicyName): ApiMiddleware {
  return {
    before: async (request) => {
      const state = request.context.api;
      const principal = state.principal;
      if (!principal) return;
      const decision = await getLimiter().consume(principal.clientId, policy, principal.rateLimits);
      state.headers = { ...state.headers, ...rateLimitHeaders(decision) };
      if (!decision.allowed) {
        const what = policy === 'events' ? 'events' : 'requests';
        throw rateLimited(
          `Over the limit of ${decision.limit} ${what} a second for this client; retry after ${decision.resetSeconds} s`,
        );
      }
    },
  };
}
