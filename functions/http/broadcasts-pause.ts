import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { broadcastStore } from '../../shared/composition/providers/broadcast-store.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { pauseBroadcast } from '../../shared/domain/broadcasts/broadcasts-api.js';
import { BroadcastIdParams, BroadcastView } from '../../shared/domain/broadcasts/schemas.js';

/** POST /client/broadcasts/{id}/pause. */
export const handler = jsonApi(
  {
    summary: 'Pause a broadcast',
    description:
      'No recipient is released from now on (one already released waits again); resume carries on where it stopped. 409 `state` unless it is starting or sending.',
    params: BroadcastIdParams,

    responses: { 200: BroadcastView },
    errors: [404, 409],
  },
  [broadcastStore, clock],
  async ({ params }, { deps, clientId }) => ok(await pauseBroadcast(deps, clientId, params.id)),
);
