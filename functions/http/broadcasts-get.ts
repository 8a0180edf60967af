import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { broadcastStore } from '../../shared/composition/providers/broadcast-store.js';
import { getBroadcast } from '../../shared/domain/broadcasts/broadcasts-api.js';
import { BroadcastIdParams, BroadcastView } from '../../shared/domain/broadcasts/schemas.js';

/** GET /client/broadcasts/{id} — the broadcast, where it stands, and its totals. */
export const handler = jsonApi(
  {
    summary: 'Get a broadcast',
    description:
      "The broadcast with its status, its recipients once the snapshot has finished, and its totals. Another account's broadcast: 404.",
    params: BroadcastIdParams,
    responses: { 200: BroadcastView },
    errors: [404],
  },
  [broadcastStore],
  async ({ params }, { deps, clientId }) => ok(await getBroadcast(deps, clientId, params.id)),
);
