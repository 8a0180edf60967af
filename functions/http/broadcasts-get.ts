import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { broadcastStore } from '../../shared/composition/providers/broadcast-store.js';
import { getBroadcastDetail } from '../../shared/domain/broadcasts/results.js';
import { BroadcastDetail, BroadcastIdParams } from '../../shared/domain/broadcasts/schemas.js';

/** GET /client/broadcasts/{id} — the broadcast, where it stands, its totals and its links. */
export const handler = jsonApi(
  {
    summary: 'Get a broadcast',
    description:
      'The broadcast with its status, its recipients once the snapshot has finished, its totals (conversions ' +
      "included) and its links by clicks, people's and machines' apart. Another account's broadcast: 404.",
    params: BroadcastIdParams,
    responses: { 200: BroadcastDetail },
    errors: [404],
  },
  [broadcastStore],
  async ({ params }, { deps, clientId }) => ok(await getBroadcastDetail(deps, clientId, params.id)),
);
