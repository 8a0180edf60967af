import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { segmentStore } from '../../shared/composition/providers/segment-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { SEGMENT_LIMITS } from '../../shared/public/segment-rules.js';
import { previewSegment } from '../../shared/domain/segments/preview.js';
import { SegmentPreviewBody, SegmentPreviewView } from '../../shared/domain/segments/schemas-api.js';

/** POST /client/segments/preview — how many contacts a definition holds for, without saving it. */
export const handler = jsonApi(
  {
    summary: 'Preview a segment',
    description:
      `Counts the contacts a definition holds for now, without saving anything. Up to ${SEGMENT_LIMITS.previewContacts} ` +
      'contacts the count is exact (`exact` true). Beyond, it reads that many (the lowest ids of each listing ' +
      'shard, so older contacts weigh more) and answers `count` of `sampled` with their `share` (`exact` ' +
      'false): an estimate, not the size. Event conditions read the counters your saved segments keep: an event ' +
      'counter none of them keeps yet counts no events. The definition is checked as on create (422).',
    body: SegmentPreviewBody,
    responses: { 200: SegmentPreviewView },
  },
  [segmentStore, topicStore, clock],
  async ({ body }, { deps, clientId }) => ok(await previewSegment(deps, clientId, body)),
);
