import { notFound } from '../../errors.js';
import type { Clock } from '../../platform.js';
import { findWebhook } from './find-webhook.js';
import type { WebhookStore } from './webhook-store.js';
import { toWebhookView, type WebhookView } from './webhook-view.js';

/** DELETE /client/webhooks/{id}: removes the endpoint (and frees its place under the limit); answers what it was. */
export async function deleteWebhook(
  deps: { clock: Clock; webhooks: WebhookStore },
  clientId: number,
  webhookId: number,
): Promise<WebhookView> {
  const webhook = await findWebhook(deps, clientId, webhookId);
  if (!(await deps.webhooks.delete(clientId, webhookId))) throw notFound('id', 'Webhook not found');
  return toWebhookView(webhook, deps.clock.now());
}
