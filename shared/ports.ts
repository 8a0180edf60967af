/**
 * The domain's view of the outside world. Domain modules depend only on these interfaces;
 * adapters/dynamo implements them for AWS and the local runtime, tests use fakes.
 */
export interface Clock {
  now(): Date;
}

export type IdEntity = 'client' | 'api_key' | 'contact' | 'custom_field' | 'template' | 'settings';

export interface Ids {
  /** Reserves `count` consecutive ids and returns the first. */
  next(entity: IdEntity, count?: number): Promise<number>;
}

export type ClientStatus = 'active' | 'suspended';

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
}

export interface ApiKeyRecord {
  key_hash: string;
  key_id: number;
  client_id: number;
  enabled: boolean;
  masked_key: string;
  created_at: string;
  disabled_at?: string;
}

export interface ClientStore {
  /** Writes the client and its first key atomically. */
  create(client: ClientRecord, key: ApiKeyRecord): Promise<void>;
  get(clientId: number): Promise<ClientRecord | undefined>;
  list(): Promise<ClientRecord[]>;
  setStatus(clientId: number, status: ClientStatus, at: string): Promise<void>;
}

export interface ApiKeyStore {
  getByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  /**
   * Disables the client's current key and stores `next` in one transaction, pointing the client at the new key —
   * only while the profile still points at `client.api_key_hash`; `conflict` when another rotation got there first.
   */
  rotate(client: ClientRecord, next: ApiKeyRecord, at: string): Promise<'rotated' | 'conflict'>;
  /** Disables the client's current key. */
  disableCurrent(client: ClientRecord, at: string): Promise<void>;
}
