import type { ClientRecord } from '../clients/client-store.js';
import type { SubscriptionPlan } from '../plans/catalog.js';
import { deletedAtOf } from '../templates/template-view.js';
import { quotaResetAt } from './quota-period.js';
import { effectiveLimits, planOf } from './effective-settings.js';
import { SETTINGS_FIELD_NAMES } from './schemas.js';
import type { SettingsBundle, SettingsRecord } from './settings-store.js';
import type { DeliverabilityFigures } from '../tracking/deliverability-guard.js';

/** The plan catalog lives in code; this is when its current version was published. */
export const PLAN_CATALOG_PUBLISHED_AT = '2026-01-01T00:00:00.000Z';

/** Role values of the nested client's `roles`: the account owner is the only role this API knows. */
export const CLIENT_ROLES = { owner: 1 } as const;

export function toPlanView(plan: SubscriptionPlan) {
  return {
    ...plan,
    created_at: PLAN_CATALOG_PUBLISHED_AT,
    updated_at: PLAN_CATALOG_PUBLISHED_AT,
    deleted_at: deletedAtOf(undefined),
  };
}

export interface ClientViewInput {
  client: ClientRecord;
  plan: SubscriptionPlan;
  monthlyQuota: number;
  monthlyEmailsSent: number;
  now: Date;
}

/** SPEC.md's nested client object. The API key is shown masked; a full key is only ever returned by rotation. */
export function toNestedClientView({ client, plan, monthlyQuota, monthlyEmailsSent, now }: ClientViewInput) {
  return {
    id: client.id,
    client_id: client.client_id,
    first_name: client.first_name ?? null,
    last_name: client.last_name ?? null,
    email: client.email,
    phone: client.phone ?? null,
    city: client.city ?? null,
    state: client.state ?? null,
    country: client.country ?? null,
    street_address: client.street_address ?? null,
    zip_code: client.zip_code ?? null,
    website: client.website ?? null,
    avatar_url: client.avatar_url ?? null,
    avatar_file_id: null,
    avatar_file: null,
    api_key: client.api_key_masked,
    api_key_enabled: client.api_key_enabled,
    is_email_verified: client.email_verified_at !== undefined,
    email_verified_at: client.email_verified_at ?? null,
    current_user_count: 1,
    monthly_email_quota: monthlyQuota,
    monthly_emails_sent: monthlyEmailsSent,
    quota_reset_at: quotaResetAt(now),
    status: client.status,
    subscription_plan_id: plan.id,
    subscription_status: client.subscription_status ?? 'active',
    subscription_tier: plan.tier,
    subscription_billing_period: client.subscription_billing_period ?? 'monthly',
    subscription_ends_at: client.subscription_ends_at ?? null,
    created_at: client.created_at,
    updated_at: client.updated_at,
    deleted_at: deletedAtOf(undefined),
    roles: [
      {
        id: client.id,
        user_id: client.id,
        role: CLIENT_ROLES.owner,
        created_at: client.created_at,
        updated_at: client.created_at,
        deleted_at: deletedAtOf(undefined),
      },
    ],
    subscription_plan: toPlanView(plan),
  };
}

/** SPEC.md's Client settings: every writable field (null when unset), then the output-only fields. */
export function toSettingsView(settings: SettingsRecord, nested: ClientViewInput, deliverability: DeliverabilityFigures) {
  const fields = Object.fromEntries(SETTINGS_FIELD_NAMES.map((name) => [name, settings[name] ?? null])) as {
    [K in (typeof SETTINGS_FIELD_NAMES)[number]]: NonNullable<SettingsRecord[K]> | null;
  };
  return {
    id: settings.id,
    client_id: settings.client_id,
    ...fields,
    tone_of_voice: settings.tone_of_voice,
    created_at: settings.created_at,
    updated_at: settings.updated_at,
    deleted_at: deletedAtOf(undefined),
    client: toNestedClientView(nested),
    // Extra (issue 9, documented): bounce and complaint rates over the window, and whether sending is paused.
    deliverability,
  };
}
export type SettingsView = ReturnType<typeof toSettingsView>;

/** The view of a loaded settings row with its client profile and this month's counter. */
export function settingsViewOf(
  bundle: SettingsBundle & { settings: SettingsRecord; client: NonNullable<SettingsBundle['client']> },
  now: Date,
  deliverability: DeliverabilityFigures,
): SettingsView {
  const plan = planOf(bundle.client.plan);
  return toSettingsView(bundle.settings, {
    client: bundle.client,
    plan,
    monthlyQuota: effectiveLimits(bundle.settings, plan).emailsPerMonth,
    monthlyEmailsSent: bundle.monthlyEmailsSent,
    now,
  }, deliverability);
}
