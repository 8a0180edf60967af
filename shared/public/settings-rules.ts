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

/** The most characters of each text setting. */
export const SETTINGS_TEXT_MAX = {
  brand_name: 100,
  company_name: 200,
  company_address: 500,
  email_from_name: 100,
  email_signature: 2000,
} as const;

/** The largest custom quota (and preference value) taken; a custom quota is also bound by the plan's. */
export const SETTINGS_QUOTA_MAX = 1_000_000_000;

/** The bounds of the integer settings that are not hours or minutes. */
export const SETTINGS_INT_RANGE = {
  max_emails_per_day: { min: 0, max: 1000 },
  queue_timeout_days: { min: 1, max: 365 },
  custom_max_workflows: { min: 0, max: 1000 },
  custom_email_quota_per_day: { min: 0, max: SETTINGS_QUOTA_MAX },
  custom_email_quota_per_month: { min: 0, max: SETTINGS_QUOTA_MAX },
} as const;

/** The bounds of an hour setting (of the day) and a minute setting (of the hour). */
export const SETTINGS_HOUR_RANGE = { min: 0, max: 23 } as const;
export const SETTINGS_MINUTE_RANGE = { min: 0, max: 59 } as const;

/** The most entries of `preferences`. */
export const MAX_PREFERENCES = 50;
