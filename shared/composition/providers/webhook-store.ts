import { DynamoWebhookStore } from '../../adapters/dynamo/webhook-store.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

/** Webhook endpoints in the table (issue 22). */
export const webhookStore = provide('webhooks', (c) => new DynamoWebhookStore(tableOf(c).db, tableOf(c).tableName));
