import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { broadcastStore } from '../../shared/composition/providers/broadcast-store.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { journeyStore } from '../../shared/composition/providers/journey-store.js';
import { segmentStore } from '../../shared/composition/providers/segment-store.js';
import { deleteSegment } from '../../shared/domain/segments/delete.js';
import { DeletedSegment, SegmentIdParams } from '../../shared/domain/segments/schemas-api.js';

/** DELETE /client/segments/{id}. */
export const handler = jsonApi(
  {
    summary: 'Delete a segment',
    description:
      "Removes the segment and frees its place in your plan's count. Its contacts leave it in the background (its " +
      'member entries go, within seconds for most segments). A broadcast scheduled, sending or paused to it holds it: ' +
      '409 `state` naming the broadcasts (cancel them or wait until they are sent). So does a live or paused journey ' +
      'that starts when contacts enter or leave it: 409 `state` naming the journey (publish it with another trigger ' +
      "or archive it first). Another account's segment: 404.",
    params: SegmentIdParams,
    responses: { 200: DeletedSegment },
    errors: [404, 409],
  },
  [segmentStore, broadcastStore, journeyStore, queue],
  async ({ params }, { deps, clientId }) => ok(await deleteSegment(deps, clientId, params.id), 'Segment deleted'),
);
