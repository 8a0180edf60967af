import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { listTopics } from '../../shared/domain/topics/manage-topics.js';
import { MAX_TOPICS, TopicList, TopicListMeta } from '../../shared/domain/topics/schemas.js';

/** GET /client/topics — the client's topics, by id. */
export const handler = jsonApi(
  {
    summary: 'List topics',
    description:
      'The kinds of marketing mail a contact can leave one by one, by id. A marketing workflow belongs ' +
      'to a topic through its customization `topic_id`; the preference page shows every topic.',
    responses: { 200: { data: TopicList, meta: TopicListMeta } },
  },
  [topicStore],
  async (_input, { deps, clientId }) => {
    const topics = await listTopics(deps, clientId);
    return ok({ topics }, 'OK', { total: topics.length, max_topics: MAX_TOPICS });
  },
);
