import { notFound } from '../../errors.js';
import type { Clock } from '../../platform.js';
import { findWebhook } from './find-webhook.js';
import type { WebhookPatch } from './schemas.js';
import { assertWebhookUrlAllowed } from './webhook-url-policy.js';
import type { WebhookChanges, WebhookStore } from './webhook-store.js';
import { toWebhookView, type WebhookView } from './webhook-view.js';

/** PATCH /client/webhooks/{id}: any subset of url, description, event_types (null: all) and enabled; one UpdateItem. */
export async function updateWebhook(
  deps: { clock: Clock; webhooks: WebhookStore },
  clientId: number,
  webhookId: number,
  patch: WebhookPatch,
  allowPrivateUrls: boolean,
): Promise<WebhookView> {
  if (patch.url !== undefined) assertWebhookUrlAllowed(patch.url, allowPrivateUrls);
  const changes: WebhookChanges = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  if (changes.event_types) changes.event_types = [...new Set(changes.event_types)];
  const now = deps.clock.now();
  if (Object.keys(changes).length === 0) return toWebhookView(await findWebhook(deps, clientId, webhookId), now);
  const updated =
    webhookId > 0 ? await deps.webhooks.update(clientId, webhookId, changes, now.toISOString()) : undefined;
  if (!updated) throw notFound('id', 'Webhook not found');
  return toWebhookView(updated, now);
}
