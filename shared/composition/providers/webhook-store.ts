import { DynamoWebhookStore } from '../../adapters/dynamo/webhook-store.js';
import { provide } from '../container.js';
import { configCacheOf, forgetsConfigAfter } from './config-cache.js';
import { tableOf } from './table.js';

/**
 * Webhook endpoints in the table. Its writes forget the client's cached configuration in this container,
 * so the stream producer of the same container sees a new, changed or removed endpoint at once (config-cache.ts).
 */
export const webhookStore = provide('webhooks', (c) =>
  forgetsConfigAfter(new DynamoWebhookStore(tableOf(c).db, tableOf(c).tableName), configCacheOf(c), {
    create: (webhook) => webhook.client_id,
    update: (clientId) => clientId,
    rotateSecret: (clientId) => clientId,
    delete: (clientId) => clientId,
  }),
);
