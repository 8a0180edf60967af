import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { segmentStore } from '../../shared/composition/providers/segment-store.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { listSegments } from '../../shared/domain/segments/list.js';
import { SegmentList, SegmentListMeta } from '../../shared/domain/segments/schemas-api.js';

/** GET /client/segments — every segment with its member count. */
export const handler = jsonApi(
  {
    summary: 'List segments',
    description:
      'Your segments by id with their status (`building` while the contacts already stored are evaluated against ' +
      'the current definition, then `ready`) and their member `count` (kept from membership changes; it follows ' +
      'them within seconds). Definitions are not listed: GET /client/segments/{id} has them. `meta.max_segments` is ' +
      'how many your plan allows.',
    responses: { 200: { data: SegmentList, meta: SegmentListMeta } },
  },
  [segmentStore, settingsStore, clock],
  async (_input, { deps, clientId }) => {
    const { segments, meta } = await listSegments(deps, clientId);
    return ok({ segments }, 'OK', meta);
  },
);
