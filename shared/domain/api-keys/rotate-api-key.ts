import type { ApiKeyStore, ClientStore, Clock, Ids } from '../../ports.js';
import { notFound } from '../../errors.js';
import { generateApiKey, hashApiKey, maskApiKey } from './api-key.js';

export interface RotatedApiKey {
  id: number;
  key: string;
  masked_key: string;
  enabled: boolean;
}

interface Deps {
  clock: Clock;
  ids: Ids;
  clients: ClientStore;
  apiKeys: ApiKeyStore;
}

/** Issues a new key and disables the previous one at once; the full key is returned only here. */
export async function rotateApiKey(deps: Deps, clientId: number): Promise<RotatedApiKey & { previousHash: string }> {
  // One wave: the profile (for the current key) and the new key's id are independent reads/writes.
  const [client, keyId] = await Promise.all([deps.clients.get(clientId), deps.ids.next('api_key')]);
  if (!client) throw notFound('client');
  const key = generateApiKey();
  const now = deps.clock.now().toISOString();
  const masked = maskApiKey(key);
  await deps.apiKeys.rotate(
    client,
    { key_hash: hashApiKey(key), key_id: keyId, client_id: clientId, enabled: true, masked_key: masked, created_at: now },
    now,
  );
  return { id: keyId, key, masked_key: masked, enabled: true, previousHash: client.api_key_hash };
}
