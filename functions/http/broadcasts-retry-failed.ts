import { accepted } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { broadcastStore } from '../../shared/composition/providers/broadcast-store.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { retryFailedBroadcast } from '../../shared/domain/broadcasts/retry-failed-broadcast.js';
import { BroadcastIdParams, BroadcastRetryView } from '../../shared/domain/broadcasts/schemas.js';

/** POST /client/broadcasts/{id}/retry-failed. */
export const handler = jsonApi(
  {
    summary: "Send a broadcast's failed recipients again",
    description:
      'Each recipient whose send failed is sent once more (status `retried`, and a new recipient with `retried_from`), ' +
      'at the broadcast’s pace, by a job that starts now; a sent broadcast goes back to sending until they are sent. ' +
      'A second request sends nothing more to those already retried. 409 `state` for a broadcast that has not started ' +
      '(a draft, scheduled, or cancelled before its start).',
    params: BroadcastIdParams,
    responses: { 202: BroadcastRetryView },
    errors: [404, 409],
  },
  [broadcastStore, queue],
  async ({ params }, { deps, clientId }) =>
    accepted(await retryFailedBroadcast(deps, clientId, params.id), 'Retrying the failed recipients'),
);
