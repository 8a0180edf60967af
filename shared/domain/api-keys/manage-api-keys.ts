import * as z from '../../validation/zod.js';
import { plainIdParam } from '../../validation/plain-id.js';
import type { Clock, Ids } from '../../platform.js';
import { conflict, notFound } from '../../errors.js';
import type { UserStore } from '../users/user-store.js';
import type { ClientRecord, ClientStore } from '../clients/client-store.js';
import { UtcTimestamp } from '../time/utc-timestamp.js';
import type { ApiKeyRecord, ApiKeyStore } from './api-key-store.js';
import { generateApiKey, hashApiKey, maskApiKey } from './api-key.js';
import { issueCondition } from '../../validation/issue-items.js';
import { API_KEY_LABEL_MAX } from '../../public/account-rules.js';

export const ApiKeyIdParams = z.object({ id: plainIdParam(15, 'The API key id') });

const Label = z
  .string({ error: (i) => (i.input === undefined ? 'label is required' : 'label must be a string') })
  .check(
    z.trim(),
    z.minLength(1, 'Must not be blank'),
    z.maxLength(API_KEY_LABEL_MAX, `Must be at most ${API_KEY_LABEL_MAX} characters`),
    z.meta({
      pattern: '\\S',
      description: `What the key is for, as the dashboard lists it (1–${API_KEY_LABEL_MAX} characters, not blank)`,
    }),
  );

export const CreateApiKeyBody = z.object({ label: Label });
export const UpdateApiKeyBody = z
  .object({ label: z.optional(Label), enabled: z.optional(z.boolean({ error: 'Must be true or false' })) })
  .check(
    z.refine((b: { label?: string; enabled?: boolean }) => b.label !== undefined || b.enabled !== undefined, {
      message: 'Give label and/or enabled',
      params: issueCondition('required'),
      path: ['label'],
    }),
    z.meta({ minProperties: 1 }),
  );

const ApiKeyFields = z.object({
  id: z.int().check(z.gte(1)),
  label: z
    .nullable(z.string())
    .check(z.meta({ description: 'null for a key made before labels (the admin CLI’s first key)' })),
  enabled: z.boolean(),
  masked_key: z.string().check(z.meta({ examples: ['els_…x9Qz'] })),
  created_at: UtcTimestamp,
  created_by: z
    .nullable(z.int())
    .check(z.meta({ description: 'The dashboard user who created it; null for the admin CLI or an API key' })),
  creator: z
    .nullable(
      z.object({
        id: z.int().check(z.gte(1)),
        email: z.string(),
        name: z.string(),
      }),
    )
    .check(
      z.meta({
        description:
          'The user who created it (`created_by`), as the dashboard names it; null when no user created it or that user was removed (the key is then disabled, `disabled_reason` `holder_removed`)',
      }),
    ),
  personal_for: z.nullable(z.int()).check(
    z.meta({
      description:
        'The user whose personal key this is (POST /client/api-keys/rotate with a session); null for a shared key',
    }),
  ),
  last_used_at: z
    .nullable(UtcTimestamp)
    .check(z.meta({ description: 'The last request made with it, to the hour (written at most once an hour)' })),
  disabled_at: z.nullable(UtcTimestamp),
  disabled_reason: z.nullable(z.enum(['holder_removed', 'holder_demoted'])).check(
    z.meta({
      description:
        'Set when the key was disabled because the user who created or holds it was removed, or given a role that may not hold keys: such a key cannot be enabled again (409 `state`); null otherwise',
    }),
  ),
});

/** An API key as the dashboard lists it (OpenAPI `ApiKeyListed`): never the key itself. */
export const ApiKeyView = ApiKeyFields.check(
  z.meta({ id: 'ApiKeyListed', description: 'An API key of the client, masked.' }),
);
export type ApiKeyView = z.output<typeof ApiKeyView>;

/** A new key with its full value (OpenAPI `ApiKeyCreated`): the only time it is shown. */
export const CreatedApiKeyView = z
  .extend(ApiKeyFields, {
    key: z
      .string()
      .check(
        z.regex(/^els_[0-9A-Za-z]{40}$/),
        z.meta({ description: 'The full key; store it now, it is not shown again' }),
      ),
  })
  .check(z.meta({ id: 'ApiKeyCreated', description: 'The new API key, in full this once.' }));

/** The dashboard's name of a user: its id, e-mail and name. */
export type KeyCreator = { id: number; email: string; name: string };

/** A key as listed; `creators` are the client's users by id (the creator is named when it is still a user). */
export const toApiKeyView = (key: ApiKeyRecord, creators: ReadonlyMap<number, KeyCreator> = new Map()): ApiKeyView => {
  const creator = key.created_by === undefined ? undefined : creators.get(key.created_by);
  return {
    id: key.key_id,
    label: key.label ?? null,
    enabled: key.enabled,
    masked_key: key.masked_key,
    created_at: key.created_at,
    created_by: key.created_by ?? null,
    creator: creator ? { id: creator.id, email: creator.email, name: creator.name } : null,
    personal_for: key.personal_for ?? null,
    last_used_at: key.last_used_at ?? null,
    disabled_at: key.disabled_at ?? null,
    disabled_reason: key.disabled_reason ?? null,
  };
};

interface Deps {
  clock: Clock;
  ids: Ids;
  clients: ClientStore;
  apiKeys: ApiKeyStore;
  /** The client's users: each answer names a key's creator. */
  users: Pick<UserStore, 'get' | 'list'>;
}

/** The client's users by id (a key's `creator`). */
const creatorsOf = async (deps: Pick<Deps, 'users'>, clientId: number): Promise<Map<number, KeyCreator>> =>
  new Map((await deps.users.list(clientId)).map((u) => [u.id, u]));

/**
 * GET /client/api-keys: every key of the client, enabled or not, by id, each with its creator named. Two Queries in one
 * wave: the keys, and the client's users.
 */
export async function listApiKeys(deps: Pick<Deps, 'apiKeys' | 'users'>, clientId: number): Promise<ApiKeyView[]> {
  const [keys, creators] = await Promise.all([deps.apiKeys.list(clientId), creatorsOf(deps, clientId)]);
  return keys.map((key) => toApiKeyView(key, creators));
}

/** 409 `state`: the user a key would belong to was removed or demoted meanwhile. */
export const holderGone = () =>
  conflict('state', 'user', 'Your account was removed or may no longer hold API keys; nothing was created');

/** A new enabled key record for `clientId` and the key itself. */
export async function newKey(
  deps: Pick<Deps, 'clock' | 'ids'>,
  clientId: number,
  fields: Pick<ApiKeyRecord, 'label' | 'created_by' | 'personal_for'>,
) {
  const key = generateApiKey();
  const record: ApiKeyRecord = {
    key_hash: hashApiKey(key),
    key_id: await deps.ids.next('api_key'),
    client_id: clientId,
    enabled: true,
    masked_key: maskApiKey(key),
    created_at: deps.clock.now().toISOString(),
    ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
  };
  return { key, record };
}

/**
 * POST /client/api-keys: a new enabled key with its label, created by the signed-in user; the key is answered once.
 * The user is read beside the id reservation (one wave) to name it as the creator.
 */
export async function createApiKey(deps: Deps, clientId: number, userId: number, label: string) {
  const [{ key, record }, user] = await Promise.all([
    newKey(deps, clientId, { label, created_by: userId }),
    deps.users.get(clientId, userId),
  ]);
  if (!user || (await deps.apiKeys.create(record)) === 'holder_gone') throw holderGone();
  return { ...toApiKeyView(record, new Map([[user.id, user]])), key };
}

/** The client and one of its keys (404 for a key of another client: the listing is the client's own). */
async function keyOf(
  deps: Pick<Deps, 'clients' | 'apiKeys' | 'users'>,
  clientId: number,
  keyId: number,
): Promise<{ client: ClientRecord; key: ApiKeyRecord; creators: Map<number, KeyCreator> }> {
  const [client, keys, creators] = await Promise.all([
    deps.clients.get(clientId),
    deps.apiKeys.list(clientId),
    creatorsOf(deps, clientId),
  ]);
  const key = keys.find((k) => k.key_id === keyId);
  if (!client || !key) throw notFound('id', 'No such API key');
  return { client, key, creators };
}

/**
 * PATCH /client/api-keys/{id}: label and/or enabled. A disabled key is refused at once on this container and within
 * the auth cache's TTL (≤ 60 s) everywhere; the caller forgets the returned digest.
 */
export async function updateApiKey(
  deps: Deps,
  clientId: number,
  keyId: number,
  changes: { label?: string; enabled?: boolean },
): Promise<{ view: ApiKeyView; keyHash: string }> {
  const { client, key, creators } = await keyOf(deps, clientId, keyId);
  if (changes.enabled === true && key.disabled_reason !== undefined) {
    // Its holder still has the key's value: enabling it would give back the access the removal or demotion ended.
    throw conflict(
      'state',
      'enabled',
      'This key was disabled because its user was removed or demoted; create a new key instead',
    );
  }
  const at = deps.clock.now().toISOString();
  if (!(await deps.apiKeys.update(client, key, changes, at))) throw notFound('id', 'No such API key');
  const enabled = changes.enabled ?? key.enabled;
  const updated: ApiKeyRecord = { ...key, ...(changes.label !== undefined ? { label: changes.label } : {}), enabled };
  if (changes.enabled === false) updated.disabled_at = at;
  if (changes.enabled === true) delete updated.disabled_at;
  return { view: toApiKeyView(updated, creators), keyHash: key.key_hash };
}

/** DELETE /client/api-keys/{id}: the key is gone (refused within the auth cache's TTL); the answer shows what it was. */
export async function deleteApiKey(
  deps: Deps,
  clientId: number,
  keyId: number,
): Promise<{ view: ApiKeyView; keyHash: string }> {
  const { client, key, creators } = await keyOf(deps, clientId, keyId);
  if (!(await deps.apiKeys.remove(client, key, deps.clock.now().toISOString())))
    throw notFound('id', 'No such API key');
  return { view: toApiKeyView(key, creators), keyHash: key.key_hash };
}
