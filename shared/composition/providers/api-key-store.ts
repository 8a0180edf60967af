import { DynamoApiKeyStore } from '../../adapters/dynamo/api-key-store.js';
import { provide } from '../container.js';

export const apiKeyStore = provide('apiKeys', (c) => new DynamoApiKeyStore(c.dynamo().db, c.dynamo().tableName));
