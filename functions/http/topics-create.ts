import { created } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { createTopic } from '../../shared/domain/topics/manage-topics.js';
import { MAX_TOPICS, TopicBody, TopicView } from '../../shared/domain/topics/schemas.js';

/** POST /client/topics — a new topic. */
export const handler = jsonApi(
  {
    summary: 'Create a topic',
    description:
      `A kind of marketing mail contacts can leave on its own. At most ${MAX_TOPICS} per client (409 \`max\` on \`id\`); ` +
      "names are unique among the client's topics, ignoring case (409 `unique` on `name`). `default_subscribed` " +
      '(default true) is the state of a contact that never chose.',
    body: TopicBody,
    responses: { 201: TopicView },
    errors: [409],
  },
  [topicStore, clock],
  async ({ body }, { deps, clientId }) => created(await createTopic(deps, clientId, body), 'Topic created'),
);
