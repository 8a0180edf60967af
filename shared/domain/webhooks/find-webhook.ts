import { notFound } from '../../errors.js';
import type { WebhookRecord, WebhookStore } from './webhook-store.js';

/** One of the client's endpoints; another client's, or a missing one, is the same 404. */
export async function findWebhook(
  deps: { webhooks: WebhookStore },
  clientId: number,
  webhookId: number,
): Promise<WebhookRecord> {
  const webhook = webhookId > 0 ? await deps.webhooks.get(clientId, webhookId) : undefined;
  if (!webhook) throw notFound('id', 'Webhook not found');
  return webhook;
}
