import { DynamoAuthReads } from '../../adapters/dynamo/auth-reads.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

/** The authenticator's reads (API key, client profile, session) without the stores that hold them. */
export const authReads = provide('authReads', (c) => new DynamoAuthReads(tableOf(c).db, tableOf(c).tableName));
