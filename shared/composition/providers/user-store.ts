import { DynamoUserStore } from '../../adapters/dynamo/user-store.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

/** Dashboard users, their count and owner, their e-mail locks. */
export const userStore = provide('users', (c) => new DynamoUserStore(tableOf(c).db, tableOf(c).tableName));
