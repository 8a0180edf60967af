import { describe, expect, it } from 'vitest';
import { memoryStores } from '../../../../shared/adapters/memory/memory-stores.js';
import { createClient } from '../../../../shared/domain/clients/create-client.js';
import type { ClientSending } from '../../../../shared/domain/domains/sender-identities.js';

/** SES's side as the admin CLI reaches it: a tenant per client, made once. */
class RecordingTenants {
  readonly ensured: number[] = [];
  async ensureClientSending(clientId: number): Promise<ClientSending> {
    this.ensured.push(clientId);
    return { tenant: `els-client-${clientId}`, configurationSet: 'els-clients' };
  }
}

describe('createClient and the SES tenant', () => {
  it("makes the client's tenant when given SES, and records it on its sending state with no domain yet", async () => {
    // Prepare
    const stores = memoryStores();
    const tenants = new RecordingTenants();

    // Act
    const { id } = await createClient({ ...stores, senderIdentities: tenants }, { email: 'a@acme.example', name: 'A' });

    // Assess
    expect(tenants.ensured).toEqual([id]);
    expect((await stores.settings.load(id, '2026-01')).sender).toEqual({
      verified_domains: [],
      tenant: `els-client-${id}`,
      configuration_set: 'els-clients',
    });
  });

  it('leaves the tenant to the first domain proof without it', async () => {
    // Prepare
    const stores = memoryStores();

    // Act
    const { id } = await createClient(stores, { email: 'b@acme.example', name: 'B' });

    // Assess
    expect((await stores.settings.load(id, '2026-01')).sender).toBeUndefined();
  });
});
