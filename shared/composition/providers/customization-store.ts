import { DynamoWorkflowCustomizationStore } from '../../adapters/dynamo/workflow-customization-store.js';
import { provide } from '../container.js';
import { configCacheOf, forgetsConfigAfter } from './config-cache.js';
import { tableOf } from './table.js';

/** Its writes forget the client's cached configuration in this container (config-cache.ts). */
export const customizationStore = provide('customizations', (c) =>
  forgetsConfigAfter(new DynamoWorkflowCustomizationStore(tableOf(c).db, tableOf(c).tableName), configCacheOf(c), {
    save: (change) => change.clientId,
    createClone: (clientId) => clientId,
  }),
);
