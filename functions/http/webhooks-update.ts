import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { webhookStore } from '../../shared/composition/providers/webhook-store.js';
import { WebhookIdParams, WebhookPatch } from '../../shared/domain/webhooks/schemas.js';
import { updateWebhook } from '../../shared/domain/webhooks/update-webhook.js';
import { WebhookView } from '../../shared/domain/webhooks/webhook-view.js';

/** PATCH /client/webhooks/{id} — any subset of url, description, event_types and enabled. */
export const handler = jsonApi(
  {
    summary: 'Update a webhook endpoint',
    description:
      'Any subset of `url`, `description`, `event_types` (null: every type) and `enabled`. The URL rules of the ' +
      'creation apply. The secret changes only by rotation.',
    params: WebhookIdParams,
    body: WebhookPatch,
    responses: { 200: WebhookView },
    errors: [404],
  },
  [webhookStore, clock],
  async ({ params, body }, { deps, clientId }) =>
    ok(await updateWebhook(deps, clientId, params.id, body, deps.config.WEBHOOK_ALLOW_PRIVATE_URLS), 'Webhook updated'),
);
