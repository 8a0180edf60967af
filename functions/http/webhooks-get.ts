import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { webhookStore } from '../../shared/composition/providers/webhook-store.js';
import { findWebhook } from '../../shared/domain/webhooks/find-webhook.js';
import { WebhookIdParams } from '../../shared/domain/webhooks/schemas.js';
import { toWebhookView, WebhookView } from '../../shared/domain/webhooks/webhook-view.js';

/** GET /client/webhooks/{id} — one endpoint, its secret masked. */
export const handler = jsonApi(
  {
    summary: 'Get a webhook endpoint',
    description: "One of the client's endpoints; the secret is masked. Another client's endpoint is a 404.",
    params: WebhookIdParams,
    responses: { 200: WebhookView },
    errors: [404],
  },
  [webhookStore, clock],
  async ({ params }, { deps, clientId }) =>
    ok(toWebhookView(await findWebhook(deps, clientId, params.id), deps.clock.now())),
);
