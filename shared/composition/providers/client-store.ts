import { DynamoClientStore } from '../../adapters/dynamo/client-store.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

export const clientStore = provide('clients', (c) => new DynamoClientStore(tableOf(c).db, tableOf(c).tableName));
