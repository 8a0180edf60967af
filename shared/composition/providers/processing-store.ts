import { DynamoProcessingStore } from '../../adapters/dynamo/processing-store.js';
import { provide } from '../container.js';

/** The reads and the one transaction of event processing. */
export const processingStore = provide('processing', (c) => new DynamoProcessingStore(c.dynamo().db, c.dynamo().tableName));
