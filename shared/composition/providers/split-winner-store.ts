import { DynamoSplitWinnerStore } from '../../adapters/dynamo/split-winner-store.js';
import { provide } from '../container.js';
import { configCacheOf, forgetsConfigAfter } from './config-cache.js';
import { tableOf } from './table.js';

/**
 * Split winners. A winner written forgets the client's cached configuration in this container (the journey index is
 * part of it), so the local runtime's engine takes the winner at once; another container within its cache's lifetime.
 */
export const splitWinnerStore = provide('splitWinners', (c) =>
  forgetsConfigAfter(new DynamoSplitWinnerStore(tableOf(c).db, tableOf(c).tableName), configCacheOf(c), {
    writeWinners: (write) => write.clientId,
  }),
);
