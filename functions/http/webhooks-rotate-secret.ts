import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { webhookStore } from '../../shared/composition/providers/webhook-store.js';
import { rotateWebhookSecret } from '../../shared/domain/webhooks/rotate-webhook-secret.js';
import { WebhookIdParams } from '../../shared/domain/webhooks/schemas.js';
import { WebhookWithSecret } from '../../shared/domain/webhooks/webhook-view.js';

/** POST /client/webhooks/{id}/rotate-secret — a new secret, shown once; the old one signs beside it for 24 h. */
export const handler = jsonApi(
  {
    summary: 'Rotate a webhook signing secret',
    description:
      'A new signing secret, in this answer only. For 24 h (`previous_secret_expires_at`) every delivery carries two ' +
      'signatures in `webhook-signature`, one per secret, so receivers can switch without losing a delivery. ' +
      'Rotating again within the overlap drops the oldest secret.',
    params: WebhookIdParams,
    responses: { 200: WebhookWithSecret },
    errors: [404],
  },
  [webhookStore, clock],
  async ({ params }, { deps, clientId }) =>
    ok(
      await rotateWebhookSecret(deps, clientId, params.id),
      'Secret rotated; store the new secret now, it is not shown again',
    ),
);
