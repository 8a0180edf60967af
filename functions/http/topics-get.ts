import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { getTopic } from '../../shared/domain/topics/manage-topics.js';
import { TopicIdParams, TopicView } from '../../shared/domain/topics/schemas.js';

/** GET /client/topics/{id} — one topic. */
export const handler = jsonApi(
  {
    summary: 'Get a topic',
    description: "One of the client's topics. Another client's topic is a 404, as a missing one.",
    params: TopicIdParams,
    responses: { 200: TopicView },
    errors: [404],
  },
  [topicStore],
  async ({ params }, { deps, clientId }) => ok(await getTopic(deps, clientId, params.id)),
);
