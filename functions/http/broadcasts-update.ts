import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { broadcastStore } from '../../shared/composition/providers/broadcast-store.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { segmentStore } from '../../shared/composition/providers/segment-store.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { replaceBroadcastDraft } from '../../shared/domain/broadcasts/edit-broadcast.js';
import { BroadcastIdParams, BroadcastReplaceBody, BroadcastView } from '../../shared/domain/broadcasts/schemas.js';

/** PUT /client/broadcasts/{id}. */
export const handler = jsonApi(
  {
    summary: 'Edit a draft broadcast',
    description:
      "Replaces a draft's name and definition whole, checked as a new broadcast is (422: every problem at its path, nothing saved); its `draft_version` goes up by one. 409 `state`: not a draft (a scheduled one is cancelled, not edited), or saved since the `draft_version` you read. Another account's broadcast: 404.",
    params: BroadcastIdParams,
    body: BroadcastReplaceBody,
    responses: { 200: BroadcastView },
    errors: [404, 409],
  },
  [broadcastStore, templateStore, topicStore, segmentStore, clock],
  async ({ params, body }, { deps, clientId }) =>
    ok(await replaceBroadcastDraft(deps, clientId, params.id, body), 'Broadcast saved'),
);
