import type { Clock } from '../../platform.js';
import type { ApiKeyStore } from '../api-keys/api-key-store.js';
import type { ClientStore } from './client-store.js';

/** An operator disables a client's current API key (admin CLI); the client and its sessions stay. */
export async function disableClientKey(
  deps: { clock: Clock; clients: ClientStore; apiKeys: ApiKeyStore },
  clientId: number,
): Promise<void> {
  const client = await deps.clients.get(clientId);
  if (!client) throw new Error(`client ${clientId} not found`);
  await deps.apiKeys.disableCurrent(client, deps.clock.now().toISOString());
}
