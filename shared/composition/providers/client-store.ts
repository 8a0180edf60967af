import { DynamoClientStore } from '../../adapters/dynamo/client-store.js';
import { provide } from '../container.js';

export const clientStore = provide('clients', (c) => new DynamoClientStore(c.dynamo().db, c.dynamo().tableName));
