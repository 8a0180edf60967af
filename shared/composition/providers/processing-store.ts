import { DynamoProcessingStore } from '../../adapters/dynamo/processing-store.js';
import { provide } from '../container.js';
import { configCacheOf } from './config-cache.js';
import { tableOf } from './table.js';

/** The reads and the one transaction of event processing. */
export const processingStore = provide(
  'processing',
  (c) => new DynamoProcessingStore(tableOf(c).db, tableOf(c).tableName, configCacheOf(c)),
);
