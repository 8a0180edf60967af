import { DynamoTrackingStore } from '../../adapters/dynamo/tracking-store.js';
import { provide } from '../container.js';

/** The SES status pipeline's reads and writes (message lookup, logs, contact, deliverability counters). */
export const trackingStore = provide('tracking', (c) => new DynamoTrackingStore(c.dynamo().db, c.dynamo().tableName));
