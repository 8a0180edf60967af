import * as z from '../../validation/zod.js';
import type { Clock, Ids } from '../../ports.js';
import type { ApiKeyStore } from './api-key-store.js';
import type { ClientStore } from '../clients/client-store.js';
import { conflict, notFound } from '../../errors.js';
import { generateApiKey, hashApiKey, maskApiKey } from './api-key.js';

/** SPEC.md's API key, as rotation answers it (OpenAPI `ApiKey`): the only time the full key is shown. */
export const RotatedApiKey = z
  .object({
    id: z.int().check(z.gte(1)),
    key: z
      .string()
      .check(
        z.regex(/^els_[0-9A-Za-z]{40}$/),
        z.meta({ description: 'The full new key: `els_` + 40 base62 characters; store it now, it is not shown again' }),
      ),
    masked_key: z.string().check(z.meta({ examples: ['els_…x9Qz'] })),
    enabled: z.boolean(),
  })
  .check(z.meta({ id: 'ApiKey', description: 'The new API key; the previous one stopped working.' }));
export type RotatedApiKey = z.output<typeof RotatedApiKey>;

interface Deps {
  clock: Clock;
  ids: Ids;
  clients: ClientStore;
  apiKeys: ApiKeyStore;
}

const lostRace = () =>
  conflict('conflict', 'api_key', 'The API key was rotated by a concurrent request; use the key that request returned');

/**
 * Issues a new key and disables the previous one at once; the full key is returned only here. `callerKeyId` is the
 * key the request authenticated with (null for a JWT): a key can be rotated once, so of concurrent rotations with
 * one key exactly one wins and the others get 409 — nobody is handed a key that is already dead.
 */
export async function rotateApiKey(
  deps: Deps,
  clientId: number,
  callerKeyId: number | null,
): Promise<RotatedApiKey & { previousHash: string }> {
  // One wave: the profile (for the current key) and the new key's id are independent reads/writes.
  const [client, keyId] = await Promise.all([deps.clients.get(clientId), deps.ids.next('api_key')]);
  if (!client) throw notFound('client');
  // The caller's key is no longer current (rotated meanwhile; the auth cache let the request in).
  if (callerKeyId !== null && client.api_key_id !== callerKeyId) throw lostRace();
  const key = generateApiKey();
  const now = deps.clock.now().toISOString();
  const masked = maskApiKey(key);
  const outcome = await deps.apiKeys.rotate(
    client,
    { key_hash: hashApiKey(key), key_id: keyId, client_id: clientId, enabled: true, masked_key: masked, created_at: now },
    now,
  );
  if (outcome === 'conflict') throw lostRace();
  return { id: keyId, key, masked_key: masked, enabled: true, previousHash: client.api_key_hash };
}
