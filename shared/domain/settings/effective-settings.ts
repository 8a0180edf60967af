import { findPlan, PLANS, type SubscriptionPlan } from '../plans/catalog.js';
import { effectiveEnabledWorkflows } from '../workflows/catalog.js';
import type { SettingsFields } from './settings-store.js';

export { SETTINGS_DEFAULTS } from '../../public/settings-rules.js';

/** The client's plan; a profile naming a plan the catalog no longer has is treated as the first (free) plan. */
export const planOf = (tier: string): SubscriptionPlan => findPlan(tier) ?? PLANS[0]!;

/** Client-wide limits: the custom values (which may only tighten the plan) or the plan's. */
export function effectiveLimits(settings: SettingsFields | undefined, plan: SubscriptionPlan) {
  const maxWorkflows = settings?.custom_max_workflows ?? plan.max_workflows;
  return {
    maxWorkflows,
    emailsPerDay: settings?.custom_email_quota_per_day ?? plan.max_emails_per_day,
    emailsPerMonth: settings?.custom_email_quota_per_month ?? plan.max_emails_per_month,
    enabledWorkflows: effectiveEnabledWorkflows(settings?.enabled_workflows, maxWorkflows),
  };
}
