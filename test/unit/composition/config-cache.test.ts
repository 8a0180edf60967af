import { describe, expect, it } from 'vitest';
import { ConfigCache } from '../../../shared/adapters/dynamo/config-cache.js';
import { forgetsConfigAfter } from '../../../shared/composition/providers/config-cache.js';

const settings = { pk: 'CLIENT#7', sk: 'SETTINGS' };

/** A cache holding client 7's settings. */
function warmCache(): ConfigCache {
  const cache = new ConfigCache(30_000);
  cache.remember([settings], [{ ...settings, version: 1 }], cache.take([]).generation);
  return cache;
}

class SettingsLike {
  saved = 0;
  async save(record: { client_id: number }, fail = false): Promise<boolean> {
    this.saved += record.client_id;
    if (fail) throw new Error('conditional check failed');
    return true;
  }
  async load(clientId: number): Promise<number> {
    return clientId + this.saved;
  }
}

describe('forgetsConfigAfter', () => {
  it('forgets the written client once a listed write resolves, and answers what the store answered', async () => {
    const cache = warmCache();
    const store = forgetsConfigAfter(new SettingsLike(), cache, { save: (record) => record.client_id });

    const saved = await store.save({ client_id: 7 });

    expect(saved).toBe(true);
    expect(cache.take([settings]).missing).toEqual([settings]);
  });

  it('forgets it also when the write fails, and rethrows', async () => {
    const cache = warmCache();
    const store = forgetsConfigAfter(new SettingsLike(), cache, { save: (record) => record.client_id });

    await expect(store.save({ client_id: 7 }, true)).rejects.toThrow('conditional check failed');

    expect(cache.take([settings]).missing).toEqual([settings]);
  });

  it('leaves reads alone (the cache keeps the client) and keeps the store its own `this`', async () => {
    const cache = warmCache();
    const inner = new SettingsLike();
    const store = forgetsConfigAfter(inner, cache, { save: (record) => record.client_id });

    const loaded = await store.load(7);

    expect(loaded).toBe(7);
    expect(cache.take([settings]).missing).toEqual([]);
  });
});
