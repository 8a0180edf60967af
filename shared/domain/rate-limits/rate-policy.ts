import type { ClientRecord } from '../clients/client-store.js';
import { findPlan, PLANS, type SubscriptionPlan } from '../plans/catalog.js';

/**
 * The two request budgets a client has: `events` for the ingest route (POST /client/events), which a
 * product calls for every user action and so gets the higher limit; `api` for every other authenticated route.
 */
export type RatePolicyName = 'api' | 'events';

export const RATE_POLICY_NAMES: readonly RatePolicyName[] = ['api', 'events'];

/** Requests a client may make per window under each policy. */
export type ClientRateLimits = Record<RatePolicyName, number>;

/**
 * Every policy counts in fixed windows of one second (docs/decisions/0078-per-client-rate-limits.md, "Per-client rate limits"): a window is one
 * counter item, and the limit reads as "N requests a second", as Stripe's and SES's own do.
 */
export const RATE_WINDOW_SECONDS = 1;

/** The operator's per-client override of the plan's limits (admin CLI `set-rate-limit`), kept on the client profile. */
export interface RateLimitOverride {
  api_requests_per_second?: number;
  event_requests_per_second?: number;
}

const planLimits = (plan: SubscriptionPlan): ClientRateLimits => ({
  api: plan.api_requests_per_second,
  events: plan.event_requests_per_second,
});

/** The client's limits: its plan's, each replaced by the operator's override where one is set. */
export function rateLimitsOf(client: Pick<ClientRecord, 'plan' | 'rate_limits'>): ClientRateLimits {
  // An unknown tier (a plan retired from the catalog) falls back to the smallest plan rather than to no limit.
  const plan = planLimits(findPlan(client.plan) ?? PLANS[0]!);
  const override = client.rate_limits ?? {};
  return {
    api: override.api_requests_per_second ?? plan.api,
    events: override.event_requests_per_second ?? plan.events,
  };
}
