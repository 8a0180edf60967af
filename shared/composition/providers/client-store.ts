import { DynamoClientStore } from '../../adapters/dynamo/client-store.js';
import { provide } from '../container.js';
import { configCacheOf, forgetsConfigAfter } from './config-cache.js';
import { tableOf } from './table.js';

/** Its profile writes forget the client's cached configuration in this container (config-cache.ts). */
export const clientStore = provide('clients', (c) =>
  forgetsConfigAfter(new DynamoClientStore(tableOf(c).db, tableOf(c).tableName), configCacheOf(c), {
    setStatus: (clientId) => clientId,
    pauseSending: (clientId) => clientId,
    resumeSending: (clientId) => clientId,
  }),
);
