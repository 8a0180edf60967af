/** Subscription plans the service offers; client limits and feature flags derive from these. */
export interface SubscriptionPlan {
  id: number;
  name: string;
  description: string;
  tier: 'free' | 'starter' | 'growth' | 'scale';
  display_order: number;
  is_active: boolean;
  max_users: number;
  max_workflows: number;
  max_emails_per_day: number;
  max_emails_per_month: number;
  /** Requests a second the client may make to the API, the ingest route aside (429 `rate_limited` beyond). */
  api_requests_per_second: number;
  /** Requests a second to POST /client/events, counted apart from the rest of the API. */
  event_requests_per_second: number;
  price_monthly_eur: number;
  price_annually_eur: number;
  has_advanced_ai_logic: boolean;
  has_ai_advisor: boolean;
  has_ai_journey_mapping: boolean;
  has_core_playbooks: boolean;
  has_health_monitor: boolean;
  has_one_click_fixes: boolean;
  has_priority_growth_support: boolean;
  has_priority_processing: boolean;
  has_smart_3_event_setup: boolean;
  has_unlimited_flows: boolean;
}

const noFeatures = {
  has_advanced_ai_logic: false,
  has_ai_advisor: false,
  has_ai_journey_mapping: false,
  has_core_playbooks: false,
  has_health_monitor: false,
  has_one_click_fixes: false,
  has_priority_growth_support: false,
  has_priority_processing: false,
  has_smart_3_event_setup: false,
  has_unlimited_flows: false,
};

export const PLANS: readonly SubscriptionPlan[] = [
  {
    id: 1,
    name: 'Free',
    description: 'Core lifecycle e-mails for a product finding its first users.',
    tier: 'free',
    display_order: 1,
    is_active: true,
    max_users: 1,
    max_workflows: 3,
    max_emails_per_day: 100,
    max_emails_per_month: 1_000,
    api_requests_per_second: 10,
    event_requests_per_second: 25,
    price_monthly_eur: 0,
    price_annually_eur: 0,
    ...noFeatures,
    has_core_playbooks: true,
  },
  {
    id: 2,
    name: 'Starter',
    description: 'Every core playbook with the smart three-event setup.',
    tier: 'starter',
    display_order: 2,
    is_active: true,
    max_users: 3,
    max_workflows: 6,
    max_emails_per_day: 2_000,
    max_emails_per_month: 25_000,
    api_requests_per_second: 25,
    event_requests_per_second: 50,
    price_monthly_eur: 29,
    price_annually_eur: 290,
    ...noFeatures,
    has_core_playbooks: true,
    has_smart_3_event_setup: true,
    has_health_monitor: true,
  },
  {
    id: 3,
    name: 'Growth',
    description: 'All workflows, health monitoring and the AI advisor.',
    tier: 'growth',
    display_order: 3,
    is_active: true,
    max_users: 10,
    max_workflows: 8,
    max_emails_per_day: 20_000,
    max_emails_per_month: 250_000,
    api_requests_per_second: 50,
    event_requests_per_second: 100,
    price_monthly_eur: 99,
    price_annually_eur: 990,
    ...noFeatures,
    has_core_playbooks: true,
    has_smart_3_event_setup: true,
    has_health_monitor: true,
    has_ai_advisor: true,
    has_one_click_fixes: true,
  },
  {
    id: 4,
    name: 'Scale',
    description: 'Unlimited flows, priority processing and support.',
    tier: 'scale',
    display_order: 4,
    is_active: true,
    max_users: 50,
    max_workflows: 100,
    max_emails_per_day: 200_000,
    max_emails_per_month: 3_000_000,
    api_requests_per_second: 100,
    event_requests_per_second: 250,
    price_monthly_eur: 399,
    price_annually_eur: 3_990,
    has_advanced_ai_logic: true,
    has_ai_advisor: true,
    has_ai_journey_mapping: true,
    has_core_playbooks: true,
    has_health_monitor: true,
    has_one_click_fixes: true,
    has_priority_growth_support: true,
    has_priority_processing: true,
    has_smart_3_event_setup: true,
    has_unlimited_flows: true,
  },
];

export const PLAN_TIERS = PLANS.map((p) => p.tier) as [SubscriptionPlan['tier'], ...SubscriptionPlan['tier'][]];

export function findPlan(tier: string): SubscriptionPlan | undefined {
  return PLANS.find((p) => p.tier === tier);
}
