import type { Clock } from '../../platform.js';
import type { ClientStore } from './client-store.js';

/** An operator suspends a client (admin CLI): authentication refuses it from then on (shared/domain/auth/authenticate.ts). */
export async function suspendClient(deps: { clock: Clock; clients: ClientStore }, clientId: number): Promise<void> {
  await deps.clients.setStatus(clientId, 'suspended', deps.clock.now().toISOString());
}
