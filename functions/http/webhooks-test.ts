import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { webhookSender } from '../../shared/composition/providers/webhook-sender.js';
import { webhookStore } from '../../shared/composition/providers/webhook-store.js';
import { WebhookIdParams } from '../../shared/domain/webhooks/schemas.js';
import { testWebhook } from '../../shared/domain/webhooks/test-webhook.js';
import { WebhookTestResult } from '../../shared/domain/webhooks/webhook-sender.js';

/** POST /client/webhooks/{id}/test — a signed `webhook.test` event delivered now; the answer says what came back. */
export const handler = jsonApi(
  {
    summary: 'Send a test delivery to a webhook endpoint',
    description:
      'Delivers a `webhook.test` event now (payload `{type, id, created_at, data}`), signed like every delivery, ' +
      'whatever the endpoint subscribed to and even when it is disabled. The answer is 200 whatever the endpoint did: ' +
      '`delivered` (2xx), its `status_code`, `duration_ms`, the first 1 KB of its body, or the `error` that kept it ' +
      'from answering (refused address, DNS, connection, the 10 s timeout). Redirects are not followed.',
    params: WebhookIdParams,
    responses: { 200: WebhookTestResult },
    errors: [404],
  },
  [webhookStore, webhookSender, clock],
  async ({ params }, { deps, clientId }) => ok(await testWebhook(deps, clientId, params.id), 'Test delivery attempted'),
);
