import { notFound } from '../../errors.js';
import type { Clock } from '../../platform.js';
import { generateSigningSecret } from './signing-secret.js';
import { SECRET_OVERLAP_MS, type WebhookStore } from './webhook-store.js';
import { toWebhookWithSecret, type WebhookWithSecret } from './webhook-view.js';

/**
 * POST /client/webhooks/{id}/rotate-secret: a new signing secret, shown once; the current one keeps signing beside
 * it for 24 h (both signatures in `webhook-signature`). Rotating again within the overlap drops the oldest secret.
 */
export async function rotateWebhookSecret(
  deps: { clock: Clock; webhooks: WebhookStore },
  clientId: number,
  webhookId: number,
): Promise<WebhookWithSecret> {
  const now = deps.clock.now();
  const expires = new Date(now.getTime() + SECRET_OVERLAP_MS).toISOString();
  const rotated =
    webhookId > 0
      ? await deps.webhooks.rotateSecret(clientId, webhookId, generateSigningSecret(), expires, now.toISOString())
      : undefined;
  if (!rotated) throw notFound('id', 'Webhook not found');
  return toWebhookWithSecret(rotated, now);
}
