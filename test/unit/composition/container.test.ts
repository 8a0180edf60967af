import { describe, expect, it, vi } from 'vitest';
import { FixedClock, memoryClientAdapters } from '../../../shared/adapters/memory/client-stores.js';
import { createContainer, provide } from '../../../shared/composition/container.js';
import { authenticator } from '../../../shared/composition/providers/authenticator.js';
import { clientStore } from '../../../shared/composition/providers/client-store.js';
import { clock } from '../../../shared/composition/providers/clock.js';
import { contactStore } from '../../../shared/composition/providers/contact-store.js';
import { storeProbe } from '../../../shared/composition/providers/store-probe.js';
import { tableOf } from '../../../shared/composition/providers/table.js';
import { loadConfig } from '../../../shared/config.js';

const config = loadConfig({ TABLE_NAME: 'test-table', AWS_REGION: 'eu-west-1' });

describe('composition container', () => {
  it('gives a function exactly the ports it lists, with config and the request counter', () => {
    // Act
    const container = createContainer({ config });
    const deps = container.resolve([clock, storeProbe]);

    // Assess
    expect(Object.keys(deps).sort()).toEqual(['clock', 'config', 'requestCounter', 'storeProbe']);
    expect(deps.config.TABLE_NAME).toBe('test-table');
    expect(deps.requestCounter).toBe(container.requestCounter);
  });

  it('builds each port once per container, so the functions of one container share it', () => {
    // Prepare
    const build = vi.fn(() => new FixedClock());
    const counting = provide('clock', build);
    const container = createContainer({ config });

    // Act
    const first = container.resolve([counting]);
    const second = container.resolve([counting, storeProbe]);

    // Assess
    expect(second.clock).toBe(first.clock);
    expect(build).toHaveBeenCalledTimes(1);
    expect(createContainer({ config }).resolve([counting]).clock).not.toBe(first.clock);
  });

  it('uses an override instead of the provider, for that port only', () => {
    // Prepare
    const fixed = new FixedClock();
    const container = createContainer({ config, overrides: { clock: fixed } });

    // Act
    const deps = container.resolve([clock, contactStore]);

    // Assess
    expect(deps.clock).toBe(fixed);
    expect(deps.contacts.constructor.name).toBe('DynamoContactStore');
  });

  it('creates no DynamoDB client until a port needs one', () => {
    const container = createContainer({ config });
    const spy = vi.spyOn(container, 'dynamo');

    container.resolve([clock]);
    expect(spy).not.toHaveBeenCalled();
    container.resolve([contactStore]);
    expect(spy).toHaveBeenCalled();
    expect(tableOf(container).tableName).toBe('test-table');
  });

  it('builds the authenticator on the overridden stores (memory adapters authenticate without AWS)', async () => {
    // Prepare
    const adapters = memoryClientAdapters();
    const { createClient } = await import('../../../shared/domain/clients/create-client.js');
    const created = await createClient(adapters, { email: 'o@acme.test', name: 'Acme' });
    const container = createContainer({ config, overrides: adapters });

    // Act
    const principal = await container.use(authenticator).authenticate(`Bearer ${created.api_key}`);

    // Assess
    expect(principal).toEqual({
      clientId: created.id,
      keyId: expect.any(Number),
      keyHash: expect.any(String),
      method: 'api_key',
      rateLimits: expect.any(Object),
    });
    expect(container.use(clientStore)).toBe(adapters.clients);
  });
});
