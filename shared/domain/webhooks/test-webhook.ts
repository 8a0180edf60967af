import { randomUUID } from 'node:crypto';
import type { Clock } from '../../platform.js';
import { WEBHOOK_TEST_EVENT } from './event-types.js';
import { findWebhook } from './find-webhook.js';
import { signDelivery } from './sign-delivery.js';
import { signingSecrets } from './signing-secret.js';
import type { WebhookSender, WebhookTestResult } from './webhook-sender.js';
import type { WebhookStore } from './webhook-store.js';

/**
 * POST /client/webhooks/{id}/test: a `webhook.test` event delivered now, signed like every delivery, whatever the
 * endpoint subscribed to and even when it is disabled; the answer says what the endpoint answered (2xx: delivered).
 * Nothing is stored (attempt logs come with the delivery queue).
 */
export async function testWebhook(
  deps: { clock: Clock; webhooks: WebhookStore; webhookSender: WebhookSender },
  clientId: number,
  webhookId: number,
): Promise<WebhookTestResult> {
  const webhook = await findWebhook(deps, clientId, webhookId);
  const now = deps.clock.now();
  const messageId = `msg_${randomUUID().replaceAll('-', '')}`;
  const body = JSON.stringify({
    type: WEBHOOK_TEST_EVENT,
    id: messageId,
    created_at: now.toISOString(),
    data: { webhook_id: webhook.id, url: webhook.url, message: 'A test delivery from POST /client/webhooks/{id}/test' },
  });
  const headers = signDelivery(messageId, now, body, signingSecrets(webhook, now));
  const outcome = await deps.webhookSender.send({ url: webhook.url, headers, body });
  const delivered = outcome.status_code !== null && outcome.status_code >= 200 && outcome.status_code < 300;
  return { delivered, ...outcome, message_id: messageId };
}
