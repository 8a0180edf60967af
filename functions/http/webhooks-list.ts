import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { webhookStore } from '../../shared/composition/providers/webhook-store.js';
import { listWebhooks } from '../../shared/domain/webhooks/list-webhooks.js';
import { WebhookList } from '../../shared/domain/webhooks/webhook-view.js';

/** GET /client/webhooks — every endpoint of the client, secrets masked. */
export const handler = jsonApi(
  {
    summary: 'List webhook endpoints',
    description: "The client's endpoints (at most 10), by id; secrets are masked.",
    responses: { 200: WebhookList },
  },
  [webhookStore, clock],
  async (_input, { deps, clientId }) => ok({ webhooks: await listWebhooks(deps, clientId) }),
);
