import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { batchGetWithConfig, ConfigCache } from '../../../../shared/adapters/dynamo/config-cache.js';
import { FakeTable } from './bulk-fake-table.js';
import { TABLE } from './bulk-support.js';

const settings = { pk: 'CLIENT#7', sk: 'SETTINGS' };
const profile = { pk: 'CLIENT#7', sk: 'PROFILE' };
const customization = { pk: 'CLIENT#7', sk: 'WORKFLOW#3' };
const contact = { pk: 'CONTACT#7#1', sk: 'CONTACT' };
const config = [settings, profile, customization];

/** A clock the test moves. */
function clockAt(start = 0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function tableWithClient(): FakeTable {
  const table = new FakeTable();
  table.put({ ...settings, version: 1 });
  table.put({ ...profile, name: 'Acme' });
  table.put({ ...contact, email: 'ann@example.com' });
  return table;
}

const keysAsked = (table: FakeTable) =>
  table.mock.commandCalls(BatchGetCommand).map((c) => c.args[0].input.RequestItems![TABLE]!.Keys);

describe('batchGetWithConfig', () => {
  let table: FakeTable | undefined;
  afterEach(() => table?.restore());

  it('reads the configuration once per TTL: the next read asks only for the contact, and remembers the absent customization', async () => {
    // Prepare
    table = tableWithClient();
    const clock = clockAt();
    const cache = new ConfigCache(30_000, clock.now);

    // Act
    const first = await batchGetWithConfig(table.db, TABLE, cache, [contact], config);
    clock.advance(29_999);
    const second = await batchGetWithConfig(table.db, TABLE, cache, [contact], config);

    // Assess
    expect(second).toEqual(expect.arrayContaining(first));
    expect(second).toHaveLength(3);
    expect(keysAsked(table)).toEqual([[contact, ...config], [contact]]);
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 3, misses: 3 });
  });

  it('sends no request when every key is configuration held by the cache', async () => {
    table = tableWithClient();
    const cache = new ConfigCache(30_000, clockAt().now);
    await batchGetWithConfig(table.db, TABLE, cache, [], config);

    const again = await batchGetWithConfig(table.db, TABLE, cache, [], config);

    expect(again.map((i) => i['sk']).sort()).toEqual(['PROFILE', 'SETTINGS']);
    expect(keysAsked(table)).toHaveLength(1);
  });

  it('reads again after the TTL, and after a write of the same container forgot the client', async () => {
    // Prepare
    table = tableWithClient();
    const clock = clockAt();
    const cache = new ConfigCache(30_000, clock.now);
    await batchGetWithConfig(table.db, TABLE, cache, [], config);

    // Act
    clock.advance(30_000);
    await batchGetWithConfig(table.db, TABLE, cache, [], config);
    table.put({ ...settings, version: 2 });
    cache.forget('CLIENT#7');
    const afterWrite = await batchGetWithConfig(table.db, TABLE, cache, [], config);

    // Assess
    expect(keysAsked(table)).toHaveLength(3);
    expect(afterWrite.find((i) => i['sk'] === 'SETTINGS')).toMatchObject({ version: 2 });
  });

  it('does not keep a read that a write of the same container overtook (it may predate the write)', async () => {
    const cache = new ConfigCache(30_000, clockAt().now);
    const { missing, generation } = cache.take([settings]);

    cache.forget('CLIENT#7');
    cache.remember(missing, [{ ...settings, version: 1 }], generation);

    expect(cache.take([settings]).missing).toEqual([settings]);
  });

  it('keeps nothing with a TTL of 0 (disabled): every read asks for every key', async () => {
    table = tableWithClient();
    const cache = new ConfigCache(0);

    await batchGetWithConfig(table.db, TABLE, cache, [contact], config);
    await batchGetWithConfig(table.db, TABLE, cache, [contact], config);

    expect(keysAsked(table)).toEqual([
      [contact, ...config],
      [contact, ...config],
    ]);
  });

  it('forgets only the written client', () => {
    const cache = new ConfigCache(30_000, clockAt().now);
    const other = { pk: 'CLIENT#70', sk: 'SETTINGS' };
    cache.remember([settings, other], [], cache.take([]).generation);

    cache.forget('CLIENT#7');

    expect(cache.take([settings, other]).missing).toEqual([settings]);
  });
});
