import type { RatePolicyName } from './rate-policy.js';

/** One window of one client's policy: the counter a request adds itself to. */
export interface RateWindow {
  clientId: number;
  policy: RatePolicyName;
  /** Start of the window, whole seconds since the epoch. */
  startsAt: number;
  /** When the counter may be dropped (epoch seconds): the store's TTL, well after the window closed. */
  expiresAt: number;
}

/** The shared count behind a rate limit (DynamoDB on AWS and locally, memory in unit tests). */
export interface RateCounter {
  /** Adds one request to the window and answers the window's count including it: one write, nothing read first. */
  add(window: RateWindow): Promise<number>;
}
