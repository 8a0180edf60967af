import * as z from '../../validation/zod.js';
import type { Clock, Ids } from '../../platform.js';
import type { ApiKeyRecord, ApiKeyStore } from './api-key-store.js';
import type { Principal } from '../auth/authenticate.js';
import type { SessionRecord } from '../auth/session-store.js';
import { holderGone, newKey } from './manage-api-keys.js';
import type { ClientStore } from '../clients/client-store.js';
import { conflict, notFound } from '../../errors.js';

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
  conflict('state', 'api_key', 'The API key was rotated by a concurrent request; use the key that request returned');

/** Who asks for a rotation: an API key (its id and digest), a dashboard session (its user), or a JWT (neither). */
export type RotationCaller = Pick<Principal, 'keyId' | 'keyHash'> & {
  session?: Pick<SessionRecord, 'user_id' | 'email'>;
};

/**
 * POST /client/api-keys/rotate (SPEC): issues a new key and disables the previous one at once; the full key is returned
 * only here. With an API key, that key is rotated; with a dashboard session, the user's own key (created on first use,
 * labelled after the user); with a JWT, the client's current key. A key can be rotated once, so of
 * concurrent rotations of one key exactly one wins and the others get 409 — nobody is handed a key that is already dead.
 */
export async function rotateApiKey(
  deps: Deps,
  clientId: number,
  caller: RotationCaller,
): Promise<RotatedApiKey & { previousHash?: string }> {
  // One wave: the profile and the caller's key (or the client's keys, for a session).
  const [client, callerKey, keys] = await Promise.all([
    deps.clients.get(clientId),
    caller.keyHash ? deps.apiKeys.getByHash(caller.keyHash) : undefined,
    caller.session ? deps.apiKeys.list(clientId) : undefined,
  ]);
  if (!client) throw notFound('client');
  const now = deps.clock.now().toISOString();
  let old: ApiKeyRecord | undefined;
  if (caller.session) {
    old = keys!.find((k) => k.personal_for === caller.session!.user_id && k.enabled);
    if (!old) {
      const first = await newKey(deps, clientId, {
        label: `Personal key of ${caller.session.email}`,
        created_by: caller.session.user_id,
        personal_for: caller.session.user_id,
      });
      if ((await deps.apiKeys.create(first.record)) === 'holder_gone') throw holderGone();
      return { id: first.record.key_id, key: first.key, masked_key: first.record.masked_key, enabled: true };
    }
  } else if (caller.keyHash) {
    // The caller's key was rotated or disabled meanwhile (the auth cache let the request in).
    if (!callerKey?.enabled || callerKey.client_id !== clientId) throw lostRace();
    old = callerKey;
  } else {
    if (caller.keyId !== null && client.api_key_id !== caller.keyId) throw lostRace();
    old = {
      key_hash: client.api_key_hash,
      key_id: client.api_key_id,
      client_id: clientId,
      enabled: client.api_key_enabled,
      masked_key: client.api_key_masked,
      created_at: client.created_at,
    };
  }
  const next = await newKey(deps, clientId, {
    label: old.label,
    created_by: old.created_by,
    personal_for: old.personal_for,
  });
  const outcome = await deps.apiKeys.replace(client, old, next.record, now);
  if (outcome === 'conflict') throw lostRace();
  if (outcome === 'holder_gone') throw holderGone();
  return {
    id: next.record.key_id,
    key: next.key,
    masked_key: next.record.masked_key,
    enabled: true,
    previousHash: old.key_hash,
  };
}
