import type { ClientStore } from './client-store.js';

/** Admin listing: never includes a key or its digest. */
export async function listClients(deps: { clients: ClientStore }) {
  const clients = await deps.clients.list();
  return clients.map((c) => ({
    id: c.id,
    client_id: c.client_id,
    name: c.name,
    email: c.email,
    plan: c.plan,
    status: c.status,
    api_key_id: c.api_key_id,
    masked_key: c.api_key_masked,
    api_key_enabled: c.api_key_enabled,
    sending_paused_at: c.sending_paused_at ?? null,
    created_at: c.created_at,
  }));
}
