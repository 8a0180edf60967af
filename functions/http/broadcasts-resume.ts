import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { broadcastStore } from '../../shared/composition/providers/broadcast-store.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { scheduler } from '../../shared/composition/providers/scheduler.js';
import { resumeBroadcast } from '../../shared/domain/broadcasts/broadcasts-api.js';
import { BroadcastIdParams, BroadcastView } from '../../shared/domain/broadcasts/schemas.js';

/** POST /client/broadcasts/{id}/resume. */
export const handler = jsonApi(
  {
    summary: 'Resume a broadcast',
    description: 'A paused broadcast sends again, paced as before. 409 `state` unless it is paused.',
    params: BroadcastIdParams,

    responses: { 200: BroadcastView },
    errors: [404, 409],
  },
  [broadcastStore, queue, scheduler, clock],
  async ({ params }, { deps, clientId }) => ok(await resumeBroadcast(deps, clientId, params.id)),
);
