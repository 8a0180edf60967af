import { DynamoTemplateStore } from '../../adapters/dynamo/template-store.js';
import { provide } from '../container.js';
import { configCacheOf, forgetsConfigAfter } from './config-cache.js';
import { tableOf } from './table.js';

/** Its writes forget the client's cached configuration in this container (config-cache.ts). */
export const templateStore = provide('templates', (c) =>
  forgetsConfigAfter(new DynamoTemplateStore(tableOf(c).db, tableOf(c).tableName), configCacheOf(c), {
    create: (template) => template.client_id,
    update: (clientId) => clientId,
    softDelete: (template) => template.client_id,
  }),
);
