import { DynamoBroadcastStore } from '../../adapters/dynamo/broadcast-store.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

/** A client's broadcast heads and their totals (the engine's own items are the recipient store's). */
export const broadcastStore = provide(
  'broadcasts',
  (c) => new DynamoBroadcastStore(tableOf(c).db, tableOf(c).tableName),
);
