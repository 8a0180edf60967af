import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { segmentStore } from '../../shared/composition/providers/segment-store.js';
import { getSegment } from '../../shared/domain/segments/get.js';
import { SegmentIdParams, SegmentView } from '../../shared/domain/segments/schemas-api.js';

/** GET /client/segments/{id} — the segment, its count and its backfill. */
export const handler = jsonApi(
  {
    summary: 'Get a segment',
    description:
      'The segment with its definition, its member `count` (and `counted_at`) and its backfill: the definition ' +
      "version being filled, contacts evaluated so far, listing shards finished. Another account's segment: 404.",
    params: SegmentIdParams,
    responses: { 200: SegmentView },
    errors: [404],
  },
  [segmentStore],
  async ({ params }, { deps, clientId }) => ok(await getSegment(deps, clientId, params.id)),
);
