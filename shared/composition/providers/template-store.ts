import { DynamoTemplateStore } from '../../adapters/dynamo/template-store.js';
import { provide } from '../container.js';

export const templateStore = provide('templates', (c) => new DynamoTemplateStore(c.dynamo().db, c.dynamo().tableName));
