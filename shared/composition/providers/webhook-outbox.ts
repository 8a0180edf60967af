import { DynamoWebhookOutbox } from '../../adapters/dynamo/webhook-outbox.js';
import { provide } from '../container.js';
import { configCacheOf } from './config-cache.js';
import { tableOf } from './table.js';
import { webhookStore } from './webhook-store.js';

/** Webhook messages and attempts in the table; endpoint lists through the container's config cache. */
export const webhookOutbox = provide(
  'webhookOutbox',
  (c) => new DynamoWebhookOutbox(tableOf(c).db, tableOf(c).tableName, c.use(webhookStore), configCacheOf(c)),
);
