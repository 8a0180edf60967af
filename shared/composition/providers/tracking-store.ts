import { DynamoTrackingStore } from '../../adapters/dynamo/tracking-store.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

/** The SES status pipeline's reads and writes (message lookup, logs, contact, deliverability counters). */
export const trackingStore = provide('tracking', (c) => new DynamoTrackingStore(tableOf(c).db, tableOf(c).tableName));
