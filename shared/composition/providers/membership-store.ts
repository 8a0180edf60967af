import { DynamoMembershipStore } from '../../adapters/dynamo/membership-store.js';
import { provide } from '../container.js';
import { configCacheOf } from './config-cache.js';
import { tableOf } from './table.js';

/**
 * Segment membership kept per contact: the evaluator's one read and transactions, the edges sweep's due index. The
 * segment index and the topics come through the container's configuration cache.
 */
export const membershipStore = provide(
  'membership',
  (c) => new DynamoMembershipStore(tableOf(c).db, tableOf(c).tableName, configCacheOf(c)),
);
