import { DynamoEventStore } from '../../adapters/dynamo/event-store.js';
import { provide } from '../container.js';

/** Events under their own keys; ingest is one write. */
export const eventStore = provide('events', (c) => new DynamoEventStore(c.dynamo().db, c.dynamo().tableName));
