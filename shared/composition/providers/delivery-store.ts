import { DynamoDeliveryStore } from '../../adapters/dynamo/delivery-store.js';
import { provide } from '../container.js';

/** The send's reads and transactions. */
export const deliveryStore = provide('delivery', (c) => new DynamoDeliveryStore(c.dynamo().db, c.dynamo().tableName));
