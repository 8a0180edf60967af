import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { removeUser } from '../../shared/domain/users/manage-users.js';
import { UserIdParams, UserView } from '../../shared/domain/users/schemas.js';

/** DELETE /client/users/{id} — removes a user and ends its sessions; never the owner. */
export const handler = jsonApi(
  {
    summary: 'Remove a dashboard user',
    description:
      'Extra (issue 23): the user, its address (free for another account) and its sessions, at once; the answer shows ' +
      'what it was. The owner cannot be removed (409 `state`): transfer ownership first.',
    params: UserIdParams,
    responses: { 200: UserView },
    errors: [404, 409],
  },
  [userStore],
  async ({ params }, { deps, clientId }) => ok(await removeUser(deps, clientId, params.id), 'User removed'),
);
