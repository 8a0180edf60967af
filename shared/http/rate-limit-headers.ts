import type { RateDecision } from '../domain/rate-limits/rate-limiter.js';

/** The response fields of the IETF RateLimit draft (draft-ietf-httpapi-ratelimit-headers-09/10) and Retry-After. */
export const RATE_LIMIT_HEADER_NAMES = ['ratelimit-policy', 'ratelimit', 'retry-after'] as const;

/**
 * What every authenticated answer says of its client's limit, as Structured Fields:
 * `RateLimit-Policy: "api";q=50;w=1` (quota, window seconds) and `RateLimit: "api";r=49;t=1` (remaining, seconds to
 * the reset); a refused request adds `Retry-After` (seconds). Without a count (the counter failed open) the
 * `RateLimit` field is left out rather than guessed. The per-IP limit of requests without a valid credential
 * (shared/domain/rate-limits/ip-limit.ts) writes the same fields under the policy `"ip"` (`w=60`) on its 429.
 */
export function rateLimitHeaders(decision: Omit<RateDecision, 'policy'> & { policy: string }): Record<string, string> {
  const name = `"${decision.policy}"`;
  const headers: Record<string, string> = {
    'ratelimit-policy': `${name};q=${decision.limit};w=${decision.windowSeconds}`,
  };
  if (decision.remaining !== undefined)
    headers['ratelimit'] = `${name};r=${decision.remaining};t=${decision.resetSeconds}`;
  if (!decision.allowed) headers['retry-after'] = String(decision.resetSeconds);
  return headers;
}
