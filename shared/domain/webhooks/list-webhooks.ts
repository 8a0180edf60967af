import type { Clock } from '../../platform.js';
import type { WebhookStore } from './webhook-store.js';
import { toWebhookView, type WebhookView } from './webhook-view.js';

/** GET /client/webhooks: every endpoint of the client (at most MAX_WEBHOOKS_PER_CLIENT), by id, secrets masked. */
export async function listWebhooks(
  deps: { clock: Clock; webhooks: WebhookStore },
  clientId: number,
): Promise<WebhookView[]> {
  const now = deps.clock.now();
  return (await deps.webhooks.list(clientId)).map((w) => toWebhookView(w, now));
}
