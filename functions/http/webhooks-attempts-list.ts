import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { webhookOutbox } from '../../shared/composition/providers/webhook-outbox.js';
import { webhookStore } from '../../shared/composition/providers/webhook-store.js';
import {
  listWebhookAttempts,
  WebhookAttemptList,
  WebhookAttemptsQuery,
} from '../../shared/domain/webhooks/attempts.js';
import { WebhookIdParams } from '../../shared/domain/webhooks/schemas.js';

/** GET /client/webhooks/{id}/attempts — every delivery attempt to the endpoint, newest first. */
export const handler = jsonApi(
  {
    summary: "List a webhook endpoint's delivery attempts",
    description:
      'Every attempt to deliver an event to this endpoint in the last 30 days, newest first: the attempt number in its ' +
      'chain (1–8: now, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), the status code, duration, the first 1 KB of the ' +
      'answer or the error, and when the next attempt is due. `limit` (1–100, default 20) per page; pass ' +
      '`next_starting_after` as `starting_after` for older attempts. Replay an event with POST …/attempts/{attempt_id}/replay.',
    params: WebhookIdParams,
    query: WebhookAttemptsQuery,
    responses: { 200: WebhookAttemptList },
    errors: [404],
  },
  [webhookStore, webhookOutbox],
  async ({ params, query }, { deps, clientId }) => ok(await listWebhookAttempts(deps, clientId, params.id, query)),
);
