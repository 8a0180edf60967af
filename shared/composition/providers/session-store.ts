import { DynamoSessionStore } from '../../adapters/dynamo/session-store.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

/** Sign-in links, dashboard sessions and the sign-in throttle. */
export const sessionStore = provide('sessions', (c) => new DynamoSessionStore(tableOf(c).db, tableOf(c).tableName));
