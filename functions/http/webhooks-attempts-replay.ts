import { accepted } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { webhookOutbox } from '../../shared/composition/providers/webhook-outbox.js';
import { webhookStore } from '../../shared/composition/providers/webhook-store.js';
import {
  replayWebhookAttempt,
  WEBHOOK_REPLAYS_PER_ATTEMPT,
  WEBHOOK_REPLAYS_PER_ENDPOINT_HOUR,
  WebhookAttemptParams,
  WebhookReplayResult,
} from '../../shared/domain/webhooks/attempts.js';

/** POST /client/webhooks/{id}/attempts/{attempt_id}/replay — deliver that attempt's event again. */
export const handler = jsonApi(
  {
    summary: "Replay a webhook attempt's event",
    description:
      'Queues the event of this attempt for delivery to the endpoint again, as attempt 1 of a chain with the full ' +
      'retry schedule; its `webhook-id` is unchanged, so a receiver that already has it can de-duplicate. 202 once ' +
      'queued; the new attempts show in GET …/attempts with `replay: true`. An event about an erased contact is sent as ' +
      'the erasure left it: ids, type, status and times, `data.erased: true`, nothing personal. 404 when the attempt is not this ' +
      "endpoint's or its event is older than 30 days; 409 `state` while the endpoint is disabled. Replays are capped: " +
      `an attempt may be replayed ${WEBHOOK_REPLAYS_PER_ATTEMPT} times (then 409 \`max\` at \`attempt_id\`), an endpoint ` +
      `${WEBHOOK_REPLAYS_PER_ENDPOINT_HOUR} times an hour, in fixed UTC hours (then 409 \`max\` at \`id\`, the message saying ` +
      'when the next hour starts).',
    params: WebhookAttemptParams,
    responses: { 202: { data: WebhookReplayResult, description: 'Queued for delivery' } },
    errors: [404, 409],
  },
  [webhookStore, webhookOutbox, queue, clock],
  async ({ params }, { deps, clientId }) =>
    accepted(await replayWebhookAttempt(deps, clientId, params.id, params.attempt_id), 'Replay queued'),
);
