import * as z from '../../validation/zod.js';
import type { ClientRecord } from '../clients/client-store.js';
import type { SubscriptionPlan } from '../plans/catalog.js';
import { DeletedAt, deletedAtOf } from '../templates/template-view.js';
import { UtcTimestamp } from '../time/utc-timestamp.js';
import { quotaResetAt } from './quota-period.js';
import { effectiveLimits, planOf } from './effective-settings.js';
import { SETTINGS_FIELD_NAMES, type SettingsFieldName } from './schemas.js';
import type { SettingsBundle, SettingsRecord } from './settings-store.js';
import type { DeliverabilityFigures } from '../tracking/deliverability-guard.js';
import type { UserRecord } from '../users/user-store.js';
import { effectiveSenderOf } from '../domains/effective-sender.js';
import type { ServiceSenders } from '../domains/service-senders.js';
import type { SenderState } from '../domains/sender-state.js';

/** The plan catalog lives in code; this is when its current version was published. */
export const PLAN_CATALOG_PUBLISHED_AT = '2026-01-01T00:00:00.000Z';

const feature = z.boolean();
const limit = z.int().check(z.gte(0));

/** SPEC.md's subscription_plan (OpenAPI `SubscriptionPlan`). */
export const PlanView = z
  .object({
    id: z.int().check(z.gte(1)),
    name: z.string(),
    description: z.string(),
    tier: z.enum(['free', 'starter', 'growth', 'scale']),
    display_order: z.int(),
    is_active: z.boolean(),
    max_users: limit,
    max_workflows: limit,
    max_emails_per_day: limit,
    max_emails_per_month: limit,
    api_requests_per_second: z.int().check(
      z.gte(1),
      z.meta({
        description:
          'Requests a second the plan allows to the API, POST /client/events aside; beyond, 429 `rate_limited` (RateLimit headers)',
      }),
    ),
    event_requests_per_second: z
      .int()
      .check(
        z.gte(1),
        z.meta({ description: 'Requests a second the plan allows to POST /client/events, counted apart' }),
      ),
    price_monthly_eur: z.number().check(z.gte(0)),
    price_annually_eur: z.number().check(z.gte(0)),
    has_advanced_ai_logic: feature,
    has_ai_advisor: feature,
    has_ai_journey_mapping: feature,
    has_core_playbooks: feature,
    has_health_monitor: feature,
    has_one_click_fixes: feature,
    has_priority_growth_support: feature,
    has_priority_processing: feature,
    has_smart_3_event_setup: feature,
    has_unlimited_flows: feature,
    created_at: UtcTimestamp,
    updated_at: UtcTimestamp,
    deleted_at: DeletedAt,
  })
  .check(
    z.meta({
      id: 'SubscriptionPlan',
      description: 'A plan of the service; client limits and feature flags derive from it.',
    }),
  );

export function toPlanView(plan: SubscriptionPlan): z.output<typeof PlanView> {
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
  /** The client's dashboard users: `current_user_count` and `roles`. */
  users: readonly UserRecord[];
}

const profile = z.nullable(z.string());

/** SPEC.md's nested client object of the settings (OpenAPI `SettingsClient`). */
export const NestedClientView = z
  .object({
    id: z.int().check(z.gte(1)),
    client_id: z.string().check(z.meta({ description: 'Public identifier (UUID)' })),
    first_name: profile,
    last_name: profile,
    email: z.string(),
    phone: profile,
    city: profile,
    state: profile,
    country: profile,
    street_address: profile,
    zip_code: profile,
    website: profile,
    avatar_url: profile,
    avatar_file_id: z
      .nullable(z.int())
      .check(z.meta({ description: 'Avatar files are managed by the dashboard: always null here' })),
    avatar_file: z.null().check(z.meta({ description: 'Avatar files are managed by the dashboard: always null here' })),
    api_key: z.string().check(
      z.meta({
        description: 'The current API key, masked; the full key is returned only by rotation',
        examples: ['els_…x9Qz'],
      }),
    ),
    api_key_enabled: z.boolean(),
    is_email_verified: z.boolean(),
    email_verified_at: z.nullable(UtcTimestamp),
    current_user_count: z
      .int()
      .check(z.gte(0), z.meta({ description: 'The dashboard users of the client (GET /client/users)' })),
    monthly_email_quota: limit.check(
      z.meta({ description: 'E-mails the client may send this month (plan or custom quota)' }),
    ),
    monthly_emails_sent: limit,
    quota_reset_at: UtcTimestamp.check(z.meta({ description: 'Start of the next UTC month' })),
    status: z.enum(['active', 'suspended']),
    subscription_plan_id: z.int().check(z.gte(1)),
    subscription_status: z.string(),
    subscription_tier: z.enum(['free', 'starter', 'growth', 'scale']),
    subscription_billing_period: z.string(),
    subscription_ends_at: z.nullable(UtcTimestamp),
    created_at: UtcTimestamp,
    updated_at: UtcTimestamp,
    deleted_at: DeletedAt,
    roles: z.array(
      z.object({
        id: z.int(),
        user_id: z.int(),
        role: z.int().check(z.gte(1), z.lte(4), z.meta({ description: '1 owner, 2 admin, 3 member, 4 viewer' })),
        created_at: UtcTimestamp,
        updated_at: UtcTimestamp,
        deleted_at: DeletedAt,
      }),
    ),
    subscription_plan: PlanView,
  })
  .check(z.meta({ id: 'SettingsClient', description: 'The client (account) the settings belong to.' }));

/** SPEC.md's nested client object. The API key is shown masked; a full key is only ever returned by rotation. */
export function toNestedClientView({
  client,
  plan,
  monthlyQuota,
  monthlyEmailsSent,
  now,
  users,
}: ClientViewInput): z.output<typeof NestedClientView> {
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
    current_user_count: users.length,
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
    // One role per user: the role entry's id is its user's.
    roles: [...users]
      .sort((a, b) => a.id - b.id)
      .map((user) => ({
        id: user.id,
        user_id: user.id,
        role: user.role,
        created_at: user.created_at,
        updated_at: user.updated_at,
        deleted_at: deletedAtOf(undefined),
      })),
    subscription_plan: toPlanView(plan),
  };
}

const hour = z.nullable(z.int().check(z.gte(0), z.lte(23)));
const minute = z.nullable(z.int().check(z.gte(0), z.lte(59)));
const flag = z.nullable(z.boolean());
const quota = z.nullable(z.int().check(z.gte(0)));
const text = z.nullable(z.string());

/** Every writable field as the settings show it: the stored value, null when unset. */
const SettingsFieldsView = {
  morning_send_hour: hour,
  morning_send_minute: minute,
  afternoon_send_hour: hour,
  afternoon_send_minute: minute,
  quiet_hour_start: hour,
  quiet_hour_end: hour,
  send_window_enabled: flag,
  send_window_start_hour: hour,
  send_window_end_hour: hour,
  send_window_allowed_days: text.check(
    z.meta({ description: 'ISO weekday numbers, e.g. "1,2,3,4,5"', examples: ['1,2,3,4,5'] }),
  ),
  timezone: text.check(z.meta({ description: 'IANA time zone name', examples: ['Europe/Paris'] })),
  max_emails_per_day: quota.check(z.meta({ description: 'Lifecycle e-mails per contact per day' })),
  queue_timeout_days: z.nullable(z.int().check(z.gte(1))),
  custom_email_quota_per_day: quota,
  custom_email_quota_per_month: quota,
  custom_max_workflows: quota,
  enable_critical_bypass: flag,
  ai_advisor_enabled: flag,
  auto_approve_enabled: flag,
  enabled_workflows: z.nullable(z.array(z.int())),
  preferences: z.nullable(z.array(z.int())),
  brand_name: text,
  brand_logo_url: text,
  brand_primary_color: text.check(z.meta({ examples: ['#1A73E8'] })),
  brand_secondary_color: text,
  company_name: text,
  company_address: text,
  email_from_name: text,
  email_from_address: text,
  email_reply_to: text,
  email_signature: text,
} satisfies { [K in SettingsFieldName]: z.ZodMiniType };

/** The `deliverability` extra (documented): bounce and complaint rates, and whether sending is paused. */
export const DeliverabilityView = z
  .object({
    window_days: z.int().check(z.gte(1)),
    sends: z.int().check(z.gte(0)),
    bounces: z.int().check(z.gte(0)),
    complaints: z.int().check(z.gte(0)),
    bounce_rate: z.number().check(z.gte(0)),
    complaint_rate: z.number().check(z.gte(0)),
    status: z.enum(['healthy', 'warning', 'paused']),
    paused_at: z.nullable(UtcTimestamp),
    paused_reason: z.nullable(z.string()),
  })
  .check(
    z.meta({ id: 'Deliverability', description: "Extra: the client's bounce and complaint rates over the window." }),
  );

/** The `sending` extra: who the client's e-mails are From now, the sandbox, and its SES tenant. */
export const SendingView = z
  .object({
    from_address: z.string().check(
      z.meta({
        description:
          'The address e-mails go From now: `email_from_address` when it is at a verified domain; unset, no-reply@ the ' +
          "first verified domain; with no verified domain, the service's onboarding sender (the sandbox)",
      }),
    ),
    from_name: z
      .string()
      .check(z.meta({ description: "Their display name; in the sandbox always the account's name" })),
    from_status: z.enum(['verified', 'not_verified', 'unset']).check(
      z.meta({
        description:
          '`verified`: `email_from_address` is used; `unset`: none is set; `not_verified`: the stored one is outside ' +
          "the verified domains (or the service's own) and is never used (see `problems`)",
      }),
    ),
    sandbox: z.boolean().check(
      z.meta({
        description:
          'No verified domain yet: e-mails go only to the dashboard users and SES mailbox simulator addresses ' +
          '(…@simulator.amazonses.com); any other recipient is skipped `sandbox_recipient`',
      }),
    ),
    verified_domains: z
      .array(z.string())
      .check(
        z.meta({ description: 'The domains a From may be at (GET /client/domains), in the order they were verified' }),
      ),
    problems: z
      .array(z.object({ key: z.string(), error: z.string() }))
      .check(z.meta({ description: 'Stored settings that break the sender rules: what is wrong and what to do' })),
    tenant: z.object({
      name: z.nullable(z.string()).check(z.meta({ description: "The client's SES tenant; null until it has one" })),
      status: z.enum(['enabled', 'paused', 'none']).check(
        z.meta({
          description: '`paused`: SES paused the tenant; e-mails wait (deferred `tenant_paused`) until it is enabled',
        }),
      ),
      paused_reason: z.nullable(z.string()),
      paused_at: z.nullable(UtcTimestamp),
    }),
  })
  .check(
    z.meta({
      id: 'Sending',
      description: "Extra: the From of the client's e-mails as the sender picks it, the sandbox, and its SES tenant.",
    }),
  );
export type SendingView = z.output<typeof SendingView>;

export interface SendingViewInput {
  settings: SettingsRecord;
  clientName: string;
  sender: SenderState | undefined;
  service: ServiceSenders;
}

/** The `sending` extra of a client's settings. */
export function toSendingView({ settings, clientName, sender, service }: SendingViewInput): SendingView {
  const sending = effectiveSenderOf({ settings, clientName, sender, ...service });
  return {
    from_address: sending.fromAddress,
    from_name: sending.fromName,
    from_status: sending.fromStatus,
    sandbox: sending.sandbox,
    verified_domains: [...(sender?.verified_domains ?? [])],
    problems: sending.problems,
    tenant: {
      name: sender?.tenant ?? null,
      status: !sender?.tenant ? 'none' : sender.tenant_paused_at ? 'paused' : 'enabled',
      paused_reason: sender?.tenant_paused_reason ?? null,
      paused_at: sender?.tenant_paused_at ?? null,
    },
  };
}

/** SPEC.md's Client settings (OpenAPI `ClientSettings`). */
export const SettingsView = z
  .object({
    id: z.int().check(z.gte(1)),
    client_id: z.int().check(z.gte(1)),
    ...SettingsFieldsView,
    tone_of_voice: z.int().check(z.gte(0), z.lte(4)),
    created_at: UtcTimestamp,
    updated_at: UtcTimestamp,
    deleted_at: DeletedAt,
    client: NestedClientView,
    deliverability: DeliverabilityView,
    sending: SendingView,
  })
  .check(
    z.meta({
      id: 'ClientSettings',
      description: "The client's settings: branding, sender, send windows, quotas. Unset values are null.",
    }),
  );
export type SettingsView = z.output<typeof SettingsView>;

/** SPEC.md's Client settings: every writable field (null when unset), then the output-only fields. */
export function toSettingsView(
  settings: SettingsRecord,
  nested: ClientViewInput,
  deliverability: DeliverabilityFigures,
  sending: SendingView,
): SettingsView {
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
    // Extra (documented): bounce and complaint rates over the window, and whether sending is paused.
    deliverability,
    // Extra (documented): who the e-mails are From, the sandbox, the SES tenant.
    sending,
  };
}

/** The view of a loaded settings row with its client profile and this month's counter. */
export function settingsViewOf(
  bundle: SettingsBundle & { settings: SettingsRecord; client: NonNullable<SettingsBundle['client']> },
  now: Date,
  deliverability: DeliverabilityFigures,
  users: readonly UserRecord[],
  service: ServiceSenders,
): SettingsView {
  const plan = planOf(bundle.client.plan);
  return toSettingsView(
    bundle.settings,
    {
      client: bundle.client,
      plan,
      monthlyQuota: effectiveLimits(bundle.settings, plan).emailsPerMonth,
      monthlyEmailsSent: bundle.monthlyEmailsSent,
      now,
      users,
    },
    deliverability,
    toSendingView({ settings: bundle.settings, clientName: bundle.client.name, sender: bundle.sender, service }),
  );
}
