import { DynamoApiKeyStore } from '../../adapters/dynamo/api-key-store.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

export const apiKeyStore = provide('apiKeys', (c) => new DynamoApiKeyStore(tableOf(c).db, tableOf(c).tableName));
