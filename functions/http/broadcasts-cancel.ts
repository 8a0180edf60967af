import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { broadcastStore } from '../../shared/composition/providers/broadcast-store.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { scheduler } from '../../shared/composition/providers/scheduler.js';
import { cancelBroadcast } from '../../shared/domain/broadcasts/broadcasts-api.js';
import { BroadcastIdParams, BroadcastView } from '../../shared/domain/broadcasts/schemas.js';

/** POST /client/broadcasts/{id}/cancel. */
export const handler = jsonApi(
  {
    summary: 'Cancel a broadcast',
    description:
      'Nothing more is sent: the recipients still waiting end `broadcast_cancelled`. 409 `state` for a draft or a broadcast already sent or cancelled.',
    params: BroadcastIdParams,

    responses: { 200: BroadcastView },
    errors: [404, 409],
  },
  [broadcastStore, queue, scheduler, clock],
  async ({ params }, { deps, clientId }) => ok(await cancelBroadcast(deps, clientId, params.id)),
);
