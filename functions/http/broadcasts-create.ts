import { created } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { broadcastStore } from '../../shared/composition/providers/broadcast-store.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { segmentStore } from '../../shared/composition/providers/segment-store.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { createBroadcast } from '../../shared/domain/broadcasts/broadcasts-api.js';
import { BroadcastCreateBody, BroadcastView } from '../../shared/domain/broadcasts/schemas.js';

/** POST /client/broadcasts — a draft. */
export const handler = jsonApi(
  {
    summary: 'Create a broadcast',
    description:
      'A draft of one e-mail to a segment, a topic or all subscribed contacts; nothing is sent until it is scheduled. ' +
      'Every problem of the body is answered at once (422, each at its path): a template, topic or segment that is ' +
      'not yours is `reference`; a transactional broadcast to anything but a segment, or under a topic, is `read_only`.',
    body: BroadcastCreateBody,
    responses: { 201: BroadcastView },
  },
  [broadcastStore, templateStore, topicStore, segmentStore, clock],
  async ({ body }, { deps, clientId }) => created(await createBroadcast(deps, clientId, body), 'Broadcast created'),
);
