import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { updateTopic } from '../../shared/domain/topics/manage-topics.js';
import { TopicIdParams, TopicPatch, TopicView } from '../../shared/domain/topics/schemas.js';

/** PATCH /client/topics/{id} — name, description, default_subscribed. */
export const handler = jsonApi(
  {
    summary: 'Update a topic',
    description:
      "Any subset of name, description and default_subscribed; absent keeps a value. A name another of the client's " +
      'topics has (ignoring case) is 409 `unique`. Changing `default_subscribed` changes the state of every contact ' +
      "that never chose; a contact's own choice stays.",
    params: TopicIdParams,
    body: TopicPatch,
    responses: { 200: TopicView },
    errors: [404, 409],
  },
  [topicStore, clock],
  async ({ params, body }, { deps, clientId }) =>
    ok(await updateTopic(deps, clientId, params.id, body), 'Topic updated'),
);
