import { DynamoSettingsStore } from '../../adapters/dynamo/settings-store.js';
import { provide } from '../container.js';
import { configCacheOf, forgetsConfigAfter } from './config-cache.js';
import { tableOf } from './table.js';

/** Its saves forget the client's cached configuration in this container (config-cache.ts). */
export const settingsStore = provide('settings', (c) =>
  forgetsConfigAfter(new DynamoSettingsStore(tableOf(c).db, tableOf(c).tableName), configCacheOf(c), {
    save: (record) => record.client_id,
    recordSending: (clientId) => clientId,
  }),
);
