import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { webhookStore } from '../../shared/composition/providers/webhook-store.js';
import { deleteWebhook } from '../../shared/domain/webhooks/delete-webhook.js';
import { WebhookIdParams } from '../../shared/domain/webhooks/schemas.js';
import { WebhookView } from '../../shared/domain/webhooks/webhook-view.js';

/** DELETE /client/webhooks/{id} — removes the endpoint; the answer shows what it was. */
export const handler = jsonApi(
  {
    summary: 'Delete a webhook endpoint',
    description: 'Removes the endpoint and frees its place under the limit of 10; the answer shows what it was.',
    params: WebhookIdParams,
    responses: { 200: WebhookView },
    errors: [404],
  },
  [webhookStore, clock],
  async ({ params }, { deps, clientId }) => ok(await deleteWebhook(deps, clientId, params.id), 'Webhook deleted'),
);
