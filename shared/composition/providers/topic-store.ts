import { DynamoTopicStore } from '../../adapters/dynamo/topic-store.js';
import { provide } from '../container.js';
import { configCacheOf, forgetsConfigAfter } from './config-cache.js';
import { tableOf } from './table.js';

/**
 * A client's topics: one item, read consistently. The send path reads it as client configuration (the
 * container's cache); a write here forgets the client's cached configuration in this container (config-cache.ts).
 */
export const topicStore = provide('topics', (c) =>
  forgetsConfigAfter(new DynamoTopicStore(tableOf(c).db, tableOf(c).tableName), configCacheOf(c), {
    save: (clientId) => clientId,
  }),
);
