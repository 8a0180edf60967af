import { created } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { webhookStore } from '../../shared/composition/providers/webhook-store.js';
import { createWebhook } from '../../shared/domain/webhooks/create-webhook.js';
import { WebhookBody } from '../../shared/domain/webhooks/schemas.js';
import { WebhookWithSecret } from '../../shared/domain/webhooks/webhook-view.js';

/** POST /client/webhooks — an endpoint with its signing secret, shown this once. */
export const handler = jsonApi(
  {
    summary: 'Create a webhook endpoint',
    description:
      'Deliveries follow the Standard Webhooks specification (`webhook-id`, `webhook-timestamp`, `webhook-signature` ' +
      'headers). The signing secret (`whsec_…`) is in this answer only; reads show it masked. `event_types` null or ' +
      'absent receives every type. On AWS the URL must be https and must not name a loopback, private, link-local or ' +
      'metadata address (422 `format` / `unsafe`; names are checked again on every delivery). At most 10 endpoints ' +
      'per client: 409 `max`.',
    body: WebhookBody,
    responses: { 201: WebhookWithSecret },
    errors: [409],
  },
  [webhookStore, ids, clock],
  async ({ body }, { deps, clientId }) =>
    created(
      await createWebhook(deps, clientId, body, deps.config.WEBHOOK_ALLOW_PRIVATE_URLS),
      'Webhook created; store the secret now, it is not shown again',
    ),
);
