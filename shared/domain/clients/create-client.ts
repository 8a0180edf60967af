import { randomUUID } from 'node:crypto';
import * as z from '../../validation/zod.js';
import { emailFormat } from '../../validation/email-address.js';
import type { Clock, Ids } from '../../platform.js';
import type { ClientRecord, ClientStore } from './client-store.js';
import { generateApiKey, hashApiKey, maskApiKey } from '../api-keys/api-key.js';
import { PLAN_TIERS } from '../plans/catalog.js';
import type { UserStore } from '../users/user-store.js';
import { addUser } from '../users/manage-users.js';
import { ROLES } from '../users/roles.js';
import { conflict } from '../../errors.js';
import type { SettingsStore } from '../settings/settings-store.js';
import { initialSettings } from '../settings/update-settings.js';
import type { SenderIdentities } from '../domains/sender-identities.js';

export const CreateClientInput = z.object({
  email: emailFormat(),
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  plan: z._default(z.enum(PLAN_TIERS), 'free'),
});
export type CreateClientInput = z.input<typeof CreateClientInput>;

export interface CreatedClient {
  id: number;
  client_id: string;
  api_key: string;
  /** The client's owner: a dashboard user with the client's e-mail address. */
  owner_user_id: number;
}

/** Creating a client also writes its settings row, every field unset (SPEC: one settings row per client). */
interface CreateDeps {
  clock: Clock;
  ids: Ids;
  clients: ClientStore;
  users: UserStore;
  settings: SettingsStore;
  /**
   * Given where the caller may create SES resources (the admin CLI on AWS): the client's SES tenant is made with it.
   * Otherwise the tenant is made at its first domain's proof.
   */
  senderIdentities?: Pick<SenderIdentities, 'ensureClientSending'>;
}

/**
 * Creates a client with its first enabled API key and its owner, a dashboard user with the client's address (which
 * must not have an account yet: one account per address); the key is returned here once and never stored.
 */
export async function createClient(deps: CreateDeps, input: CreateClientInput): Promise<CreatedClient> {
  const parsed = CreateClientInput.parse(input);
  // Checked first so a taken address leaves no client behind; addUser's lock settles a race.
  if (await deps.users.findByEmail(parsed.email)) {
    throw conflict(
      'unique',
      'email',
      `${parsed.email.toLowerCase()} already has an account (an address belongs to one client)`,
    );
  }
  const now = deps.clock.now().toISOString();
  const [id, keyId, settingsId] = await Promise.all([
    deps.ids.next('client'),
    deps.ids.next('api_key'),
    deps.ids.next('settings'),
  ]);
  const apiKey = generateApiKey();
  const keyHash = hashApiKey(apiKey);
  const client: ClientRecord = {
    id,
    client_id: randomUUID(),
    name: parsed.name,
    email: parsed.email.toLowerCase(),
    plan: parsed.plan,
    status: 'active',
    api_key_id: keyId,
    api_key_hash: keyHash,
    api_key_masked: maskApiKey(apiKey),
    api_key_enabled: true,
    created_at: now,
    updated_at: now,
  };
  await deps.clients.create(client, {
    key_hash: keyHash,
    key_id: keyId,
    client_id: id,
    enabled: true,
    masked_key: client.api_key_masked,
    created_at: now,
  });
  // The settings row, every field unset (the defaults apply), so GET /client/settings — and the dashboard's
  // deliverability — answer from the start. Written apart: should it fail, the first PATCH creates it as before.
  const [owner] = await Promise.all([
    addUser(deps, client, { email: client.email, name: parsed.name, role: ROLES.owner }),
    deps.settings.save(initialSettings(id, settingsId, now), undefined),
    ensureSending(deps, id),
  ]);
  return { id, client_id: client.client_id, api_key: apiKey, owner_user_id: owner.id };
}

/** The client's SES tenant (idempotent: a tenant that exists is found), recorded on its sending state. */
async function ensureSending(deps: CreateDeps, clientId: number): Promise<void> {
  if (!deps.senderIdentities) return;
  await deps.settings.recordSending(clientId, await deps.senderIdentities.ensureClientSending(clientId));
}
