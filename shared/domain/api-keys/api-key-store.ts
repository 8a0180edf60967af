import type { ClientRecord } from '../clients/client-store.js';

/** An API key as stored: only its SHA-256 digest, never the key. */
export interface ApiKeyRecord {
  key_hash: string;
  key_id: number;
  client_id: number;
  enabled: boolean;
  masked_key: string;
  created_at: string;
  disabled_at?: string;
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
