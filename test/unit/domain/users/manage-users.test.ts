import { describe, expect, it } from 'vitest';
import { memoryClientAdapters } from '../../../../shared/adapters/memory/client-stores.js';
import { createClient } from '../../../../shared/domain/clients/create-client.js';
import { addUser, changeUserRole, listUsers, removeUser } from '../../../../shared/domain/users/manage-users.js';
import type { SystemMessage } from '../../../../shared/domain/system-mail/system-mail.js';
import { AppError } from '../../../../shared/errors.js';
import { hashApiKey } from '../../../../shared/domain/api-keys/api-key.js';
import { createApiKey, listApiKeys, updateApiKey } from '../../../../shared/domain/api-keys/manage-api-keys.js';
import { rotateApiKey } from '../../../../shared/domain/api-keys/rotate-api-key.js';

async function setup(plan: 'free' | 'starter' | 'growth' = 'starter') {
  const deps = memoryClientAdapters();
  const mails: SystemMessage[] = [];
  const all = {
    ...deps,
    systemMail: {
      send: async (m: SystemMessage) => (mails.push(m), { kind: 'sent' as const, providerMessageId: 'm' }),
    },
  };
  const client = await createClient(all, { email: 'Owner@Acme.test', name: 'Acme', plan });
  return { deps: all, client, mails };
}

const failure = async (promise: Promise<unknown>): Promise<AppError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

describe('users', () => {
  it('creates a client with its owner, the client address, counted in the roster', async () => {
    const { deps, client } = await setup();
    expect(await listUsers(deps, client.id)).toEqual([
      expect.objectContaining({
        id: client.owner_user_id,
        email: 'owner@acme.test',
        role: 1,
        role_name: 'owner',
        invited_by: null,
      }),
    ]);
    expect(await deps.users.roster(client.id)).toEqual({ count: 1, owner_id: client.owner_user_id });
  });

  it('refuses a client whose address already has an account, leaving no client behind', async () => {
    const { deps } = await setup();
    const error = await failure(createClient(deps, { email: 'owner@acme.test', name: 'Again' }));
    expect(error.status).toBe(409);
    expect(await deps.clients.list()).toHaveLength(1);
  });

  it('transfers ownership (the owner becomes admin), and never demotes or removes the owner directly', async () => {
    const { deps, client } = await setup('growth');
    const mia = await addUser(
      deps,
      { id: client.id, plan: 'growth' },
      { email: 'mia@acme.test', name: 'Mia', role: 3 },
    );
    expect((await failure(changeUserRole(deps, client.id, client.owner_user_id, 2))).items[0]).toMatchObject({
      condition: 'state',
      key: 'role',
    });
    expect((await failure(removeUser(deps, client.id, client.owner_user_id))).items[0]).toMatchObject({
      condition: 'state',
    });
    expect((await changeUserRole(deps, client.id, mia.id, 1)).view).toMatchObject({ id: mia.id, role: 1 });
    expect((await listUsers(deps, client.id)).map((u) => [u.email, u.role])).toEqual([
      ['owner@acme.test', 2],
      ['mia@acme.test', 1],
    ]);
    expect(await deps.users.roster(client.id)).toEqual({ count: 2, owner_id: mia.id });
    // The former owner can now be removed; the count and the address follow.
    await removeUser(deps, client.id, client.owner_user_id);
    expect(await deps.users.roster(client.id)).toEqual({ count: 1, owner_id: mia.id });
    expect(await deps.users.findByEmail('owner@acme.test')).toBeUndefined();
  });

  it('answers 404 for a user of another client', async () => {
    const { deps, client } = await setup('growth');
    const other = await createClient(deps, { email: 'b@other.test', name: 'B', plan: 'growth' });
    for (const call of [
      changeUserRole(deps, client.id, other.owner_user_id, 2),
      removeUser(deps, client.id, other.owner_user_id),
    ]) {
      expect((await failure(call)).status).toBe(404);
    }
  });
});

describe('API keys end with their holder', () => {
  it('disables the keys a removed admin created or holds, answers their digests, and refuses to enable them again', async () => {
    const { deps, client } = await setup('growth');
    const admin = await addUser(
      deps,
      { id: client.id, plan: 'growth' },
      { email: 'ada@acme.test', name: 'Ada', role: 2 },
    );
    const labelled = await createApiKey(deps, client.id, admin.id, 'CI');
    const personal = await rotateApiKey(deps, client.id, {
      keyId: null,
      session: { user_id: admin.id, email: admin.email },
    });
    const owners = await createApiKey(deps, client.id, client.owner_user_id, 'Owner’s');

    const { disabledKeys } = await removeUser(deps, client.id, admin.id);

    expect(disabledKeys.sort()).toEqual([hashApiKey(labelled.key), hashApiKey(personal.key)].sort());
    const listed = await listApiKeys(deps, client.id);
    expect(listed.find((k) => k.id === labelled.id)).toMatchObject({
      enabled: false,
      disabled_reason: 'holder_removed',
      creator: null,
      created_by: admin.id,
    });
    expect(listed.find((k) => k.id === personal.id)).toMatchObject({
      enabled: false,
      disabled_reason: 'holder_removed',
      personal_for: admin.id,
    });
    expect(listed.find((k) => k.id === owners.id)).toMatchObject({
      enabled: true,
      disabled_reason: null,
      creator: { id: client.owner_user_id, email: 'owner@acme.test', name: expect.any(String) },
    });
    const again = await failure(updateApiKey(deps, client.id, labelled.id, { enabled: true }));
    expect([again.status, again.items[0]?.condition, again.items[0]?.key]).toEqual([409, 'state', 'enabled']);
  });

  it('disables the keys of an admin demoted to member, keeps those of an owner who becomes admin, and makes no key for a member', async () => {
    const { deps, client } = await setup('growth');
    const admin = await addUser(
      deps,
      { id: client.id, plan: 'growth' },
      { email: 'ada@acme.test', name: 'Ada', role: 2 },
    );
    const key = await createApiKey(deps, client.id, admin.id, 'CI');
    const owners = await createApiKey(deps, client.id, client.owner_user_id, 'Owner’s');
    const demoted = await changeUserRole(deps, client.id, admin.id, 3);
    expect(demoted.disabledKeys).toEqual([hashApiKey(key.key)]);
    expect(await deps.apiKeys.getByHash(hashApiKey(key.key))).toMatchObject({
      enabled: false,
      disabled_reason: 'holder_demoted',
    });
    const refused = await failure(createApiKey(deps, client.id, admin.id, 'again'));
    expect([refused.status, refused.items[0]?.condition]).toEqual([409, 'state']);

    const other = await addUser(
      deps,
      { id: client.id, plan: 'growth' },
      { email: 'bo@acme.test', name: 'Bo', role: 2 },
    );
    expect((await changeUserRole(deps, client.id, other.id, 1)).disabledKeys).toEqual([]);
    expect((await deps.apiKeys.getByHash(hashApiKey(owners.key)))?.enabled).toBe(true);
  });
});
