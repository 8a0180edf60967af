import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { customizationStore } from '../../shared/composition/providers/customization-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { deleteTopic } from '../../shared/domain/topics/manage-topics.js';
import { TopicIdParams, TopicView } from '../../shared/domain/topics/schemas.js';

/** DELETE /client/topics/{id} — removes a topic no workflow uses; the answer shows what it was. */
export const handler = jsonApi(
  {
    summary: 'Delete a topic',
    description:
      "Removes the topic; the answer shows what it was. A topic a workflow's customization names is 409 `state`, " +
      'the error naming those workflows (set their `topic_id` to null or another topic first). Its id is never reused.',
    params: TopicIdParams,
    responses: { 200: TopicView },
    errors: [404, 409],
  },
  [topicStore, customizationStore, clock],
  async ({ params }, { deps, clientId }) => ok(await deleteTopic(deps, clientId, params.id), 'Topic deleted'),
);
