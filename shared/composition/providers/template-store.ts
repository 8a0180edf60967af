import { DynamoTemplateStore } from '../../adapters/dynamo/template-store.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

export const templateStore = provide('templates', (c) => new DynamoTemplateStore(tableOf(c).db, tableOf(c).tableName));
