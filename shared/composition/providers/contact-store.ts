import { DynamoContactStore } from '../../adapters/dynamo/contact-store.js';
import { provide } from '../container.js';

export const contactStore = provide('contacts', (c) => new DynamoContactStore(c.dynamo().db, c.dynamo().tableName));
