import { findPlan, PLANS, type SubscriptionPlan } from '../plans/catalog.js';
import { effectiveEnabledWorkflows } from '../workflows/catalog.js';
import type { SettingsFields } from './settings-store.js';

/**
 * What an unset setting means. Settings show `null` for what the client never set; the sender reads these.
 * Hours and minutes are in the contact's time zone (the client's `timezone` when the contact has none).
 */
export const SETTINGS_DEFAULTS = {
  morning_send_hour: 9,
  morning_send_minute: 0,
  afternoon_send_hour: 14,
  afternoon_send_minute: 0,
  send_window_enabled: false,
  send_window_allowed_days: '1,2,3,4,5,6,7',
  timezone: 'UTC',
  max_emails_per_day: 3,
  queue_timeout_days: 7,
  enable_critical_bypass: true,
  ai_advisor_enabled: false,
  auto_approve_enabled: false,
} as const;

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
