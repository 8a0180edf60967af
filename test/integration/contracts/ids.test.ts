import { describe, expect, it } from 'vitest';
import { STORE_ADAPTERS } from './support.js';

describe.each(STORE_ADAPTERS)('Ids contract (%s)', (_name, makeStores) => {
  it('reserves consecutive blocks that never overlap, one sequence per entity', async () => {
    // Prepare
    const { ids } = makeStores();

    // Act
    const block = await ids.next('template', 3);
    const after = await ids.next('template');

    // Assess
    expect(block).toBeGreaterThan(0);
    expect(after).toBeGreaterThanOrEqual(block + 3);
  });

  it('hands concurrent callers disjoint ids', async () => {
    const { ids } = makeStores();

    const firsts = await Promise.all(Array.from({ length: 10 }, () => ids.next('custom_field', 2)));

    const taken = firsts.flatMap((first) => [first, first + 1]);
    expect(new Set(taken).size).toBe(20);
  });
});

describe.each(STORE_ADAPTERS)('StoreProbe contract (%s)', (_name, makeStores) => {
  it('answers when the store is reachable', async () => {
    await expect(makeStores().storeProbe.ping()).resolves.toBeUndefined();
  });
});
