import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { broadcastStore } from '../../shared/composition/providers/broadcast-store.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { scheduler } from '../../shared/composition/providers/scheduler.js';
import { segmentStore } from '../../shared/composition/providers/segment-store.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { scheduleBroadcast } from '../../shared/domain/broadcasts/broadcasts-api.js';
import { BroadcastIdParams, BroadcastScheduleBody, BroadcastView } from '../../shared/domain/broadcasts/schemas.js';

/** POST /client/broadcasts/{id}/schedule. */
export const handler = jsonApi(
  {
    summary: 'Schedule a broadcast',
    description:
      "The draft read (`draft_version`) is checked again and scheduled for its `schedule`: its audience is read when it starts, then each recipient is sent once, paced within your plan's broadcast rate and the account's SES rate. 409 `state`: not a draft, or saved since it was read. 422: its template, topic or segment is gone, or its time has passed.",
    params: BroadcastIdParams,
    body: BroadcastScheduleBody,
    responses: { 200: BroadcastView },
    errors: [404, 409],
  },
  [broadcastStore, templateStore, topicStore, segmentStore, queue, scheduler, clock],
  async ({ params, body }, { deps, clientId }) =>
    ok(await scheduleBroadcast(deps, clientId, params.id, body.draft_version)),
);
