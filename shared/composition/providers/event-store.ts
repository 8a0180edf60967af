import { DynamoEventStore } from '../../adapters/dynamo/event-store.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

/** Events under their own keys; ingest is one write. */
export const eventStore = provide('events', (c) => new DynamoEventStore(tableOf(c).db, tableOf(c).tableName));
