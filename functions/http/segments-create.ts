import { created } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { segmentStore } from '../../shared/composition/providers/segment-store.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { createSegment } from '../../shared/domain/segments/create.js';
import { SegmentCreateBody, SegmentView } from '../../shared/domain/segments/schemas-api.js';

/** POST /client/segments — a new segment; its backfill starts at once. */
export const handler = jsonApi(
  {
    summary: 'Create a segment',
    description:
      'A saved condition tree; contacts enter and leave it as they change, as events are counted and as time passes. ' +
      'It starts `building`: the contacts already stored are evaluated in the background (members join as it goes) ' +
      'and it turns `ready` once every contact was. Every problem of the body is answered at once (422, each at its ' +
      'path, e.g. `definition.groups.0.conditions.1.count`); a topic that is not yours is 422 `reference`; more ' +
      "than the event counters your segments may keep together is 422 `max`; over your plan's segments, 409 `max`.",
    body: SegmentCreateBody,
    responses: { 201: SegmentView },
    errors: [409],
  },
  [segmentStore, settingsStore, topicStore, queue, clock],
  async ({ body }, { deps, clientId }) => created(await createSegment(deps, clientId, body), 'Segment created'),
);
