import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../../../shared/domain/api-keys/api-key-store.js';
import type { ClientRecord } from '../../../shared/domain/clients/client-store.js';
import { AT, freshClientId, LATER, STORE_ADAPTERS } from './support.js';

function clientWithKey(id = freshClientId()): { client: ClientRecord; key: ApiKeyRecord } {
  const hash = randomUUID().replaceAll('-', '').repeat(2);
  const client: ClientRecord = {
    id,
    client_id: randomUUID(),
    name: 'Acme',
    email: `ops-${id}@acme.test`,
    plan: 'free',
    status: 'active',
    api_key_id: 1,
    api_key_hash: hash,
    api_key_masked: 'els_…abcd',
    api_key_enabled: true,
    created_at: AT,
    updated_at: AT,
  };
  const key: ApiKeyRecord = {
    key_hash: hash,
    key_id: 1,
    client_id: id,
    enabled: true,
    masked_key: 'els_…abcd',
    created_at: AT,
  };
  return { client, key };
}

const nextKey = (client: ClientRecord): ApiKeyRecord => ({
  key_hash: randomUUID().replaceAll('-', '').repeat(2),
  key_id: client.api_key_id + 1,
  client_id: client.id,
  enabled: true,
  masked_key: 'els_…wxyz',
  created_at: LATER,
});

describe.each(STORE_ADAPTERS)('ClientStore and ApiKeyStore contract (%s)', (_name, makeStores) => {
  it('stores a client with its first key, found by id, by key digest and in the list', async () => {
    // Prepare
    const { clients, apiKeys } = makeStores();
    const { client, key } = clientWithKey();

    // Act
    await clients.create(client, key);

    // Assess
    expect(await clients.get(client.id)).toEqual(client);
    expect(await apiKeys.getByHash(key.key_hash)).toEqual(key);
    expect((await clients.list()).find((c) => c.id === client.id)).toEqual(client);
    expect(await clients.get(freshClientId())).toBeUndefined();
    expect(await apiKeys.getByHash('0'.repeat(64))).toBeUndefined();
  });

  it('refuses a second client with the same id', async () => {
    const { clients } = makeStores();
    const { client, key } = clientWithKey();
    await clients.create(client, key);

    await expect(clients.create({ ...client, name: 'Other' }, nextKey(client))).rejects.toThrow();
    expect((await clients.get(client.id))?.name).toBe('Acme');
  });

  it('sets the status of an existing client and refuses an unknown one', async () => {
    const { clients } = makeStores();
    const { client, key } = clientWithKey();
    await clients.create(client, key);

    await clients.setStatus(client.id, 'suspended', LATER);

    expect(await clients.get(client.id)).toMatchObject({ status: 'suspended', updated_at: LATER });
    await expect(clients.setStatus(freshClientId(), 'suspended', LATER)).rejects.toThrow();
  });

  it('pauses sending once and resumes it with the deliverability baseline', async () => {
    // Prepare
    const { clients } = makeStores();
    const { client, key } = clientWithKey();
    await clients.create(client, key);
    const baseline = { at: LATER, day: LATER.slice(0, 10), sends: 300, bounces: 16, complaints: 0 };

    // Act
    const paused = await clients.pauseSending(client.id, AT, 'bounce rate 5.33 %');
    const pausedAgain = await clients.pauseSending(client.id, LATER, 'again');
    const whilePaused = await clients.get(client.id);
    const resumed = await clients.resumeSending(client.id, baseline);
    const resumedAgain = await clients.resumeSending(client.id, baseline);

    // Assess
    expect([paused, pausedAgain, resumed, resumedAgain]).toEqual([true, false, true, false]);
    expect(whilePaused).toMatchObject({ sending_paused_at: AT, sending_paused_reason: 'bounce rate 5.33 %' });
    const after = await clients.get(client.id);
    expect(after?.sending_paused_at).toBeUndefined();
    expect(after?.sending_paused_reason).toBeUndefined();
    expect(after?.sending_resumed).toEqual(baseline);
  });

  it('rotates: the old key is disabled, the new one stored and the profile repointed', async () => {
    // Prepare
    const { clients, apiKeys } = makeStores();
    const { client, key } = clientWithKey();
    await clients.create(client, key);
    const next = nextKey(client);

    // Act
    const outcome = await apiKeys.rotate(client, next, LATER);

    // Assess
    expect(outcome).toBe('rotated');
    expect(await apiKeys.getByHash(key.key_hash)).toMatchObject({ enabled: false, disabled_at: LATER });
    expect(await apiKeys.getByHash(next.key_hash)).toEqual(next);
    expect(await clients.get(client.id)).toMatchObject({
      api_key_id: next.key_id,
      api_key_hash: next.key_hash,
      api_key_masked: next.masked_key,
      api_key_enabled: true,
      updated_at: LATER,
    });
  });

  it('answers conflict to a rotation that read a key another rotation already replaced', async () => {
    const { clients, apiKeys } = makeStores();
    const { client, key } = clientWithKey();
    await clients.create(client, key);
    const winner = nextKey(client);
    await apiKeys.rotate(client, winner, LATER);

    const loser = nextKey(client);
    expect(await apiKeys.rotate(client, loser, LATER)).toBe('conflict');

    expect(await apiKeys.getByHash(loser.key_hash)).toBeUndefined();
    expect((await clients.get(client.id))?.api_key_hash).toBe(winner.key_hash);
  });

  it('disables the current key and says so on the profile', async () => {
    const { clients, apiKeys } = makeStores();
    const { client, key } = clientWithKey();
    await clients.create(client, key);

    await apiKeys.disableCurrent(client, LATER);

    expect(await apiKeys.getByHash(key.key_hash)).toMatchObject({ enabled: false, disabled_at: LATER });
    expect(await clients.get(client.id)).toMatchObject({ api_key_enabled: false, updated_at: LATER });
  });
});
