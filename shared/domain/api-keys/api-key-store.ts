import type { ClientRecord } from '../clients/client-store.js';

/** Why a key was turned off by something other than its own PATCH: its holder (creator or owner) left or was demoted. */
export type KeyDisabledReason = 'holder_removed' | 'holder_demoted';

/** An API key as stored: only its SHA-256 digest, never the key. */
export interface ApiKeyRecord {
  key_hash: string;
  key_id: number;
  client_id: number;
  enabled: boolean;
  masked_key: string;
  created_at: string;
  disabled_at?: string;
  /** Set when the key was disabled because its holder was removed or demoted: it cannot be enabled again. */
  disabled_reason?: KeyDisabledReason;
  /** The dashboard's name for the key; absent on keys made before labels. */
  label?: string;
  /** The user who created it (a session); absent for the admin CLI's and for an API key's rotation of an unlabeled key. */
  created_by?: number;
  /** The user whose own key this is: what POST /client/api-keys/rotate rotates for a session (created on first use). */
  personal_for?: number;
  /** Last request authenticated with it, written at most once an hour. */
  last_used_at?: string;
}

/** What PATCH /client/api-keys/{id} changes. */
export interface ApiKeyChanges {
  label?: string;
  enabled?: boolean;
}

export interface ApiKeyStore {
  getByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  /**
   * Disables the client's current key and stores `next` in one transaction, pointing the client at the new key —
   * only while the profile still points at `client.api_key_hash`; `conflict` when another rotation got there first.
   */
  rotate(client: ClientRecord, next: ApiKeyRecord, at: string): Promise<'rotated' | 'conflict' | 'holder_gone'>;
  /** Disables the client's current key. */
  disableCurrent(client: ClientRecord, at: string): Promise<void>;
  /** The client's keys (any state), by id. */
  list(clientId: number): Promise<ApiKeyRecord[]>;
  /**
   * Stores a new key (never replaces one), with its holders' index items (key-holders.ts): `holder_gone` when its
   * creator or personal holder no longer exists with a role that may hold keys (nothing written).
   */
  create(key: ApiKeyRecord): Promise<'created' | 'holder_gone'>;
  /**
   * Disables `old` (only while it is enabled: a key is rotated once) and stores `next`, in one transaction; when `old`
   * is the profile's current key the profile follows it (guarded as in `rotate`). `conflict`: `old` was rotated or
   * disabled meanwhile; `holder_gone` as in `create` (the new key keeps the old one's holders).
   */
  replace(
    client: ClientRecord,
    old: ApiKeyRecord,
    next: ApiKeyRecord,
    at: string,
  ): Promise<'rotated' | 'conflict' | 'holder_gone'>;
  /** Changes a key's label or state (the profile's `api_key_enabled` with it when it is the current key); false when gone. */
  update(client: ClientRecord, key: ApiKeyRecord, changes: ApiKeyChanges, at: string): Promise<boolean>;
  /** Deletes a key (the profile's `api_key_enabled` goes false when it was the current key); false when gone. */
  remove(client: ClientRecord, key: ApiKeyRecord, at: string): Promise<boolean>;
}
