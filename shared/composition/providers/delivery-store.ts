import { DynamoDeliveryStore } from '../../adapters/dynamo/delivery-store.js';
import { provide } from '../container.js';
import { configCacheOf } from './config-cache.js';
import { tableOf } from './table.js';

/** The send's reads and transactions. */
export const deliveryStore = provide(
  'delivery',
  (c) => new DynamoDeliveryStore(tableOf(c).db, tableOf(c).tableName, configCacheOf(c)),
);
