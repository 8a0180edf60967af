import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { segmentStore } from '../../shared/composition/providers/segment-store.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { SegmentIdParams, SegmentPatchBody, SegmentView } from '../../shared/domain/segments/schemas-api.js';
import { updateSegment } from '../../shared/domain/segments/update.js';

/** PATCH /client/segments/{id} — name, description, or a new definition (a new version, built again). */
export const handler = jsonApi(
  {
    summary: 'Update a segment',
    description:
      'Changes the name and description in place. A different `definition` is a new version (`version` + 1): the ' +
      'segment is `building` again while every contact is evaluated against it. `version` must be the one you ' +
      'read: 409 `state` when the definition changed since. The definition is checked as on create (422, every ' +
      'problem at its path).',
    params: SegmentIdParams,
    body: SegmentPatchBody,
    responses: { 200: SegmentView },
    errors: [404, 409],
  },
  [segmentStore, settingsStore, topicStore, queue, clock],
  async ({ params, body }, { deps, clientId }) =>
    ok(await updateSegment(deps, clientId, params.id, body), 'Segment updated'),
);
