import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { broadcastStore } from '../../shared/composition/providers/broadcast-store.js';
import { linkSecret } from '../../shared/composition/providers/link-secret.js';
import { listBroadcastRecipients } from '../../shared/domain/broadcasts/results.js';
import {
  BroadcastIdParams,
  BroadcastRecipientList,
  BroadcastRecipientsQuery,
} from '../../shared/domain/broadcasts/schemas.js';

/** GET /client/broadcasts/{id}/recipients — who it went to and where each stands. */
export const handler = jsonApi(
  {
    summary: "List a broadcast's recipients",
    description:
      'Its recipients by contact id, each with its status (from its execution and its e-mail: opens and clicks by ' +
      'people only), reason, when its e-mail was sent and when it converted; `status` keeps one status. `per_page` ' +
      '(≤ 100) a page; follow `next_cursor` (opaque, signed, bound to the filter) until it is null. A retried ' +
      "recipient is listed once per attempt. Another account's broadcast: 404.",
    params: BroadcastIdParams,
    query: BroadcastRecipientsQuery,
    responses: { 200: BroadcastRecipientList },
    errors: [404],
  },
  [broadcastStore, linkSecret],
  async ({ params, query }, { deps, clientId }) =>
    ok(
      await listBroadcastRecipients(
        { broadcasts: deps.broadcasts, cursorSecret: await deps.linkSecret.value() },
        clientId,
        params.id,
        query,
      ),
    ),
);
