import type { ApiKeyRecord } from '../api-keys/api-key-store.js';
import type { RateLimitOverride } from '../rate-limits/rate-policy.js';

export type ClientStatus = 'active' | 'suspended';

/** A client (tenant) as stored: its profile and a pointer to its current API key. */
export interface ClientRecord {
  id: number;
  /** Public string identifier (UUID). */
  client_id: string;
  name: string;
  email: string;
  plan: string;
  status: ClientStatus;
  api_key_id: number;
  api_key_hash: string;
  api_key_masked: string;
  api_key_enabled: boolean;
  created_at: string;
  updated_at: string;
  /** Optional dashboard profile details, shown in the client settings' nested `client` (null when unset). */
  first_name?: string;
  last_name?: string;
  phone?: string;
  city?: string;
  state?: string;
  country?: string;
  street_address?: string;
  zip_code?: string;
  website?: string;
  avatar_url?: string;
  email_verified_at?: string;
  /** Billing state kept by the dashboard; `active` / `monthly` when unset. */
  subscription_status?: string;
  subscription_billing_period?: string;
  subscription_ends_at?: string;
  /** The operator's override of the plan's request rate limits (admin CLI `set-rate-limit`); absent: the plan's. */
  rate_limits?: RateLimitOverride;
  /** Sending paused by the deliverability guard: executions wait until an admin resumes it. */
  sending_paused_at?: string;
  sending_paused_reason?: string;
  /** The last resume: the deliverability window restarts there (days before it and the counts of its day at that moment are left out). */
  sending_resumed?: DeliverabilityBaseline;
}

/** A client's counts of one UTC day at the moment sending was resumed. */
export interface DeliverabilityBaseline {
  at: string;
  day: string;
  sends: number;
  bounces: number;
  complaints: number;
}

export interface ClientStore {
  /** Writes the client and its first key atomically. */
  create(client: ClientRecord, key: ApiKeyRecord): Promise<void>;
  get(clientId: number): Promise<ClientRecord | undefined>;
  list(): Promise<ClientRecord[]>;
  setStatus(clientId: number, status: ClientStatus, at: string): Promise<void>;
  /** Sets the operator's rate limit override (`undefined`: back to the plan's); the client must exist. */
  setRateLimits(clientId: number, limits: RateLimitOverride | undefined, at: string): Promise<void>;
  /** Pauses the client's sending; false when it was paused already. */
  pauseSending(clientId: number, at: string, reason: string): Promise<boolean>;
  /** Resumes it, restarting the deliverability window at `baseline`; false when it was not paused. */
  resumeSending(clientId: number, baseline: DeliverabilityBaseline): Promise<boolean>;
}
