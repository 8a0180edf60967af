import { DynamoRunStore } from '../../adapters/dynamo/run-store.js';
import { provide } from '../container.js';
import { configCacheOf } from './config-cache.js';
import { tableOf } from './table.js';

/** Journey runs: their one read and one transaction a step (the journey index and settings from the config cache). */
export const runStore = provide(
  'runs',
  (c) => new DynamoRunStore(tableOf(c).db, tableOf(c).tableName, configCacheOf(c)),
);
