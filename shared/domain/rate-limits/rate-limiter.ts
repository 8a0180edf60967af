import type { Clock } from '../../platform.js';
import type { RateCounter } from './rate-counter.js';
import { RATE_WINDOW_SECONDS, type ClientRateLimits, type RatePolicyName } from './rate-policy.js';

/** How far a request stands within its client's policy: what the RateLimit headers say, and whether it may run. */
export interface RateDecision {
  policy: RatePolicyName;
  /** Requests allowed per window. */
  limit: number;
  windowSeconds: number;
  allowed: boolean;
  /** Requests left in the window after this one; undefined when the shared count could not be read (failed open). */
  remaining: number | undefined;
  /** Whole seconds until the window ends, at least 1: `t` of the RateLimit header and the 429's Retry-After. */
  resetSeconds: number;
}

export interface RateLimiterDeps {
  counter: RateCounter;
  clock: Clock;
  /** The shared counter failed: the request is let through (see `consume`); this says so in the log. */
  onCounterError: (error: unknown) => void;
}

/** Windows this container already saw exhausted, at most this many remembered (a flood of many clients at once). */
const MAX_REMEMBERED = 10_000;
/** Counter items are kept a minute past their window (TTL), long enough for any request still in flight to add to it. */
const COUNTER_TTL_SECONDS = 60;

/**
 * A fixed-window limit per client and policy over one shared counter (docs/decisions/0078-per-client-rate-limits.md, "Per-client rate limits").
 * Each admitted request costs one counter write. Once this container has seen a window full, it refuses that client's
 * further requests of the window itself, without writing: a flood costs the store about `limit` writes a window per
 * client, plus one per container that joins the flood, however many requests it sends.
 */
export class RateLimiter {
  /** `<client>:<policy>` → start of the window this container knows to be full. */
  private readonly full = new Map<string, number>();

  constructor(private readonly deps: RateLimiterDeps) {}

  /** Counts one request of `clientId` under `policy` and says whether it may run. */
  async consume(clientId: number, policy: RatePolicyName, limits: ClientRateLimits): Promise<RateDecision> {
    const limit = limits[policy];
    const nowMs = this.deps.clock.now().getTime();
    const startsAt = Math.floor(nowMs / 1000 / RATE_WINDOW_SECONDS) * RATE_WINDOW_SECONDS;
    const resetSeconds = Math.max(1, Math.ceil(startsAt + RATE_WINDOW_SECONDS - nowMs / 1000));
    const decision = (allowed: boolean, remaining: number | undefined): RateDecision => ({
      policy,
      limit,
      windowSeconds: RATE_WINDOW_SECONDS,
      allowed,
      remaining,
      resetSeconds,
    });

    const memo = `${clientId}:${policy}`;
    if (this.full.get(memo) === startsAt) return decision(false, 0);

    let count: number;
    try {
      count = await this.deps.counter.add({
        clientId,
        policy,
        startsAt,
        expiresAt: startsAt + RATE_WINDOW_SECONDS + COUNTER_TTL_SECONDS,
      });
    } catch (error) {
      // The limit protects the service; it is not worth failing a client's request when the counter cannot be
      // reached. API Gateway's stage and route throttles still bound the whole API meanwhile.
      this.deps.onCounterError(error);
      return decision(true, undefined);
    }
    if (count <= limit) return decision(true, limit - count);
    this.remember(memo, startsAt);
    return decision(false, 0);
  }

  private remember(memo: string, startsAt: number): void {
    if (this.full.size >= MAX_REMEMBERED) {
      for (const [key, start] of this.full) if (start < startsAt) this.full.delete(key);
      if (this.full.size >= MAX_REMEMBERED) this.full.clear();
    }
    this.full.set(memo, startsAt);
  }
}
