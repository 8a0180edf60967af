import { DynamoBroadcastStore } from '../../adapters/dynamo/broadcast-store.js';
import { provide } from '../container.js';
import { configCacheOf, forgetsConfigAfter } from './config-cache.js';
import { tableOf } from './table.js';

/**
 * A client's broadcasts, their result rows and recipient listing (the engine's own items are the recipient store's).
 * Event processing reads the broadcasts that count conversions as client configuration, through the container's
 * cache: listing one forgets the client's cached configuration here.
 */
export const broadcastStore = provide('broadcasts', (c) =>
  forgetsConfigAfter(new DynamoBroadcastStore(tableOf(c).db, tableOf(c).tableName), configCacheOf(c), {
    listConversion: (clientId: number) => clientId,
  }),
);
