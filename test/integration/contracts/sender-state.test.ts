import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { memoryStores } from '../../../shared/adapters/memory/memory-stores.js';
import { keys } from '../../../shared/adapters/dynamo/keys.js';
import { createContainer, type Container } from '../../../shared/composition/container.js';
import { clientStore } from '../../../shared/composition/providers/client-store.js';
import { contactStore } from '../../../shared/composition/providers/contact-store.js';
import { deliveryStore } from '../../../shared/composition/providers/delivery-store.js';
import { eventStore } from '../../../shared/composition/providers/event-store.js';
import { executionStore } from '../../../shared/composition/providers/execution-store.js';
import { processingStore } from '../../../shared/composition/providers/processing-store.js';
import { settingsStore } from '../../../shared/composition/providers/settings-store.js';
import { tableOf } from '../../../shared/composition/providers/table.js';
import { userStore } from '../../../shared/composition/providers/user-store.js';
import type { Ports } from '../../../shared/composition/port-registry.js';
import { loadConfig } from '../../../shared/config.js';
import type { SenderState } from '../../../shared/domain/domains/sender-state.js';
import { claimedExecution } from '../../../shared/domain/executions/delivery-store.js';
import { EXECUTION_STATUS } from '../../../shared/domain/executions/execution-record.js';
import { ROLES } from '../../../shared/domain/users/roles.js';
import { createClient, createContact, executionRecord, reservation, seedExecutions } from './engine-support.js';
import { AT, freshClientId, LATER } from './support.js';

type SenderPorts = Pick<
  Ports,
  'clients' | 'contacts' | 'settings' | 'events' | 'processing' | 'executions' | 'delivery' | 'users'
>;

/** Each adapter with a way to write a client's SENDER item as the domain checks do. */
interface Adapter {
  ports: SenderPorts;
  seedSender(clientId: number, state: SenderState): Promise<void>;
}

let dynamo: Container | undefined;

const ADAPTERS: [string, () => Adapter][] = [
  [
    'memory',
    () => {
      const stores = memoryStores();
      return {
        ports: stores,
        seedSender: async (clientId, state) => {
          stores.settings.senders.set(clientId, structuredClone(state));
        },
      };
    },
  ],
  [
    'dynamodb',
    () => {
      dynamo ??= createContainer({
        config: loadConfig({
          AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
          TABLE_NAME: inject('tableName'),
          AWS_REGION: process.env['AWS_REGION'] ?? 'us-east-1',
          // Every read goes to the table: the contract is the adapter's, not the cache's.
          CONFIG_CACHE_TTL_SECONDS: '0',
        }),
      });
      const container = dynamo;
      return {
        ports: container.resolve([
          clientStore,
          contactStore,
          settingsStore,
          eventStore,
          processingStore,
          executionStore,
          deliveryStore,
          userStore,
        ]),
        seedSender: async (clientId, state) => {
          const { db, tableName } = tableOf(container);
          await db.send(
            new PutCommand({ TableName: tableName, Item: { ...keys.sender(clientId), entity: 'sender', ...state } }),
          );
        },
      };
    },
  ],
];

describe.each(ADAPTERS)('the sender state in the settings and delivery stores (%s)', (_name, makeAdapter) => {
  it('reads the SENDER item with the settings and with a send; none for a client without one', async () => {
    // Prepare
    const { ports, seedSender } = makeAdapter();
    const [withSender, without] = [freshClientId(), freshClientId()];
    await Promise.all([createClient(ports, withSender), createClient(ports, without)]);
    const state: SenderState = { verified_domains: ['acme.example'], tenant: 'els-client-1', configuration_set: 'set' };
    await seedSender(withSender, state);
    const contact = await createContact(ports, withSender);
    const [execution] = await seedExecutions(ports, withSender, [executionRecord(withSender, contact.id)]);

    // Act
    const [settings, none, send] = await Promise.all([
      ports.settings.load(withSender, '2026-01'),
      ports.settings.load(without, '2026-01'),
      ports.delivery.load(execution!),
    ]);

    // Assess
    expect(settings.sender).toEqual(state);
    expect(none).not.toHaveProperty('sender');
    expect(send.sender).toEqual(state);
  });

  it("records a client's tenant on its sending state, creating it or keeping the verified domains it holds", async () => {
    // Prepare
    const { ports, seedSender } = makeAdapter();
    const [fresh, verified] = [freshClientId(), freshClientId()];
    await Promise.all([createClient(ports, fresh), createClient(ports, verified)]);
    await seedSender(verified, { verified_domains: ['acme.example'] });
    const sending = { tenant: 'els-client-9', configurationSet: 'els-clients' };

    // Act
    await ports.settings.recordSending(fresh, sending);
    await ports.settings.recordSending(verified, sending);

    // Assess
    expect((await ports.settings.load(fresh, '2026-01')).sender).toEqual({
      verified_domains: [],
      tenant: 'els-client-9',
      configuration_set: 'els-clients',
    });
    expect((await ports.settings.load(verified, '2026-01')).sender).toEqual({
      verified_domains: ['acme.example'],
      tenant: 'els-client-9',
      configuration_set: 'els-clients',
    });
  });

  it("lists a client's dashboard users' addresses as its sandbox recipients, and no other client's", async () => {
    // Prepare
    const { ports } = makeAdapter();
    const [clientId, other] = [freshClientId(), freshClientId()];
    const user = (id: number, client_id: number, email: string, role: 1 | 2 | 3 | 4) => ({
      id,
      client_id,
      email,
      name: email,
      role,
      created_at: AT,
      updated_at: AT,
    });
    await ports.users.create(user(1, clientId, `owner-${clientId}@acme.example`, ROLES.owner), 10);
    await ports.users.create(user(2, clientId, `viewer-${clientId}@acme.example`, ROLES.viewer), 10);
    await ports.users.create(user(1, other, `owner-${other}@other.example`, ROLES.owner), 10);

    // Act
    const recipients = await ports.delivery.sandboxRecipients(clientId);

    // Assess
    expect(recipients.sort()).toEqual([`owner-${clientId}@acme.example`, `viewer-${clientId}@acme.example`]);
  });

  it("records a tenant's pause once (its start kept, reason and last look moved), clears only the pause it saw, and writes nothing without a SENDER item", async () => {
    // Prepare
    const { ports, seedSender } = makeAdapter();
    const [clientId, bare] = [freshClientId(), freshClientId()];
    await Promise.all([createClient(ports, clientId), createClient(ports, bare)]);
    await seedSender(clientId, { verified_domains: ['acme.example'], tenant: 'els-client-1' });
    const sender = async (id: number) => (await ports.settings.load(id, '2026-01')).sender;

    // Act
    await ports.delivery.markTenantPaused(clientId, 'first', AT);
    await ports.delivery.markTenantPaused(clientId, 'second', LATER);
    await ports.delivery.markTenantPaused(bare, 'first', AT);

    // Assess
    expect(await sender(clientId)).toEqual({
      verified_domains: ['acme.example'],
      tenant: 'els-client-1',
      tenant_paused_at: AT,
      tenant_paused_reason: 'second',
      tenant_checked_at: LATER,
    });
    expect(await sender(bare)).toBeUndefined();

    // Act: a clear for another pause changes nothing; the one seen removes it
    await ports.delivery.clearTenantPause(clientId, LATER);
    const kept = await sender(clientId);
    await ports.delivery.clearTenantPause(clientId, AT);

    // Assess
    expect(kept).toMatchObject({ tenant_paused_at: AT });
    expect(await sender(clientId)).toEqual({ verified_domains: ['acme.example'], tenant: 'els-client-1' });
  });

  it('defers a claim for a paused tenant as for a throttle, but without counting a throttle', async () => {
    // Prepare
    const { ports } = makeAdapter();
    const clientId = freshClientId();
    await createClient(ports, clientId);
    const contact = await createContact(ports, clientId, { active_workflow_count: 1 });
    const [execution] = await seedExecutions(ports, clientId, [executionRecord(clientId, contact.id)]);
    const r = reservation(execution!);
    await ports.delivery.claim(r);

    // Act
    const deferred = await ports.delivery.deferClaim(claimedExecution(r), LATER, 'tenant_paused', LATER, 'pause');

    // Assess
    expect(deferred).toBe(true);
    expect(await ports.executions.get(clientId, execution!.id)).toEqual({
      ...execution,
      status: EXECUTION_STATUS.queued,
      scheduled_for: LATER,
      reason: 'tenant_paused',
      deferrals: 1,
      updated_at: LATER,
    });
  });
});
