import type { ClientRecord } from '../clients/client-store.js';
import type { SenderState } from '../domains/sender-state.js';
import type { ClientSending } from '../domains/sender-identities.js';

/** The writable fields of SPEC.md's Client settings; absent = unset (the default applies). */
export interface SettingsFields {
  morning_send_hour?: number;
  morning_send_minute?: number;
  afternoon_send_hour?: number;
  afternoon_send_minute?: number;
  quiet_hour_start?: number;
  quiet_hour_end?: number;
  send_window_enabled?: boolean;
  send_window_start_hour?: number;
  send_window_end_hour?: number;
  /** ISO weekday numbers, comma separated, ascending: "1,2,3,4,5". */
  send_window_allowed_days?: string;
  timezone?: string;
  max_emails_per_day?: number;
  queue_timeout_days?: number;
  custom_email_quota_per_day?: number;
  custom_email_quota_per_month?: number;
  custom_max_workflows?: number;
  enable_critical_bypass?: boolean;
  ai_advisor_enabled?: boolean;
  auto_approve_enabled?: boolean;
  enabled_workflows?: number[];
  preferences?: number[];
  brand_name?: string;
  brand_logo_url?: string;
  brand_primary_color?: string;
  brand_secondary_color?: string;
  company_name?: string;
  company_address?: string;
  email_from_name?: string;
  email_from_address?: string;
  email_reply_to?: string;
  email_signature?: string;
}

export interface SettingsRecord extends SettingsFields {
  id: number;
  client_id: number;
  tone_of_voice: number;
  /** Optimistic-locking counter: every write is conditioned on the version it read. */
  version: number;
  created_at: string;
  updated_at: string;
}

/** What every settings read needs, fetched together. */
export interface SettingsBundle {
  settings?: SettingsRecord;
  client?: ClientRecord;
  /** E-mails sent this UTC month (the monthly quota counter; 0 when it does not exist yet). */
  monthlyEmailsSent: number;
  /** The client's sending state (verified domains, SES tenant, its pause); absent until its first domain or tenant. */
  sender?: SenderState;
}

export interface SettingsStore {
  /**
   * The settings row, the client profile, its sending state and the month's quota counter (`month` = yyyy-mm) in one
   * read.
   */
  load(clientId: number, month: string): Promise<SettingsBundle>;
  /**
   * Writes the whole row if it is still at `expectedVersion` (undefined: only if no row exists yet).
   * False when another write came first.
   */
  save(record: SettingsRecord, expectedVersion: number | undefined): Promise<boolean>;
  /** Records the client's SES tenant and its configuration set on its sending state (creating it, no domain yet). */
  recordSending(clientId: number, sending: ClientSending): Promise<void>;
}
