import { DynamoContactStore } from '../../adapters/dynamo/contact-store.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

export const contactStore = provide('contacts', (c) => new DynamoContactStore(tableOf(c).db, tableOf(c).tableName));
