import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { broadcastStore } from '../../shared/composition/providers/broadcast-store.js';
import { listBroadcasts } from '../../shared/domain/broadcasts/broadcasts-api.js';
import { BroadcastList } from '../../shared/domain/broadcasts/schemas.js';

/** GET /client/broadcasts — the latest 100, newest first. */
export const handler = jsonApi(
  {
    summary: 'List broadcasts',
    description: 'Your latest 100 broadcasts, newest first, each with its status and totals.',
    responses: { 200: BroadcastList },
  },
  [broadcastStore],
  async (_request, { deps, clientId }) => ok(await listBroadcasts(deps, clientId)),
);
