import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryStores, type MemoryStores } from '../../../shared/adapters/memory/memory-stores.js';
import { createContainer, type Provider } from '../../../shared/composition/container.js';
import type { Ports } from '../../../shared/composition/port-registry.js';
import { loadConfig } from '../../../shared/config.js';

/**
 * The memory stores name each store by the port it stands in for. The adapter does not import the wiring's port list;
 * the check lives here, on the composition side.
 */

/** Compiles only if every memory store's name is a port and its value has that port's shape. */
type StoresArePorts = { [K in keyof MemoryStores]: K extends keyof Ports ? Ports[K] : never };

const PROVIDERS = join(import.meta.dirname, '../../../shared/composition/providers');

async function allProviders(): Promise<Provider[]> {
  const modules = await Promise.all(
    readdirSync(PROVIDERS)
      .filter((name) => name.endsWith('.ts'))
      .map((name) => import(join(PROVIDERS, name)) as Promise<Record<string, unknown>>),
  );
  return modules.flatMap((module) =>
    Object.values(module).filter(
      (value): value is Provider => typeof value === 'object' && value !== null && 'port' in value && 'build' in value,
    ),
  );
}

describe('memory stores as overrides', () => {
  it('stand in, under their own names, for the ports the providers build', async () => {
    // Prepare
    const stores: StoresArePorts = memoryStores();
    const providers = await allProviders();
    const container = createContainer({ config: loadConfig({}), overrides: stores });

    // Act
    const served = Object.keys(stores).map((name) => {
      const provider = providers.find((p) => p.port === name);
      return [name, provider ? container.use(provider) === stores[name as keyof MemoryStores] : 'no provider'];
    });

    // Assess
    expect(served.filter(([, same]) => same !== true)).toEqual([]);
    expect(served.length).toBeGreaterThan(20);
  });
});
