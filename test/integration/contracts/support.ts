import { randomInt } from 'node:crypto';
import { inject } from 'vitest';
import { memoryStores } from '../../../shared/adapters/memory/memory-stores.js';
import { createContainer, type Container } from '../../../shared/composition/container.js';
import { apiKeyStore } from '../../../shared/composition/providers/api-key-store.js';
import { clientStore } from '../../../shared/composition/providers/client-store.js';
import { contactStore } from '../../../shared/composition/providers/contact-store.js';
import { contactWrites } from '../../../shared/composition/providers/contact-writes.js';
import { customizationStore } from '../../../shared/composition/providers/customization-store.js';
import { ids } from '../../../shared/composition/providers/ids.js';
import { settingsStore } from '../../../shared/composition/providers/settings-store.js';
import { storeProbe } from '../../../shared/composition/providers/store-probe.js';
import { templateStore } from '../../../shared/composition/providers/template-store.js';
import type { Ports } from '../../../shared/composition/port-registry.js';
import { loadConfig } from '../../../shared/config.js';

/**
 * The store ports every contract suite runs against: the memory adapters and the DynamoDB adapters on the
 * integration run's DynamoDB Local (global setup). Each test works under client ids of its own, so the suites
 * share the table with every other integration test.
 */
export type StorePorts = Pick<
  Ports,
  | 'clients'
  | 'apiKeys'
  | 'ids'
  | 'contacts'
  | 'contactWrites'
  | 'settings'
  | 'templates'
  | 'customizations'
  | 'storeProbe'
>;

let dynamo: Container | undefined;

function dynamoStores(): StorePorts {
  dynamo ??= createContainer({
    config: loadConfig({
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
      TABLE_NAME: inject('tableName'),
      AWS_REGION: process.env['AWS_REGION'] ?? 'us-east-1',
    }),
  });
  return dynamo.resolve([
    clientStore,
    apiKeyStore,
    ids,
    contactStore,
    contactWrites,
    settingsStore,
    templateStore,
    customizationStore,
    storeProbe,
  ]);
}

/** `describe.each(STORE_ADAPTERS)('ContactStore contract (%s)', (_name, stores) => …)`: fresh memory stores per call. */
export const STORE_ADAPTERS: [string, () => StorePorts][] = [
  ['memory', () => memoryStores()],
  ['dynamodb', dynamoStores],
];

/** A client id no other test uses (ids handed out by the counter stay far below). */
export const freshClientId = (): number => randomInt(1_000_000_000, 2 ** 47);

export const AT = '2026-01-15T10:00:00.000Z';
export const LATER = '2026-01-15T11:00:00.000Z';
