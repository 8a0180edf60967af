import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { broadcastStore } from '../../shared/composition/providers/broadcast-store.js';
import { deleteBroadcastDraft } from '../../shared/domain/broadcasts/edit-broadcast.js';
import { BroadcastIdParams, DeletedBroadcast } from '../../shared/domain/broadcasts/schemas.js';

/** DELETE /client/broadcasts/{id}. */
export const handler = jsonApi(
  {
    summary: 'Delete a draft broadcast',
    description:
      "Removes a draft. A broadcast ever scheduled stays on record (its recipients, e-mails and results name it): 409 `state`; cancel one that is scheduled or sending. Another account's broadcast: 404.",
    params: BroadcastIdParams,
    responses: { 200: DeletedBroadcast },
    errors: [404, 409],
  },
  [broadcastStore],
  async ({ params }, { deps, clientId }) =>
    ok(await deleteBroadcastDraft(deps, clientId, params.id), 'Broadcast deleted'),
);
