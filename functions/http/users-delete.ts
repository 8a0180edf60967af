import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { authenticator } from '../../shared/composition/providers/authenticator.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { removeUser } from '../../shared/domain/users/manage-users.js';
import { UserIdParams, UserView } from '../../shared/domain/users/schemas.js';

/** DELETE /client/users/{id} — removes a user, ends its sessions and disables its API keys; never the owner. */
export const handler = jsonApi(
  {
    summary: 'Remove a dashboard user',
    description:
      'Extra: the user, its address (free for another account) and its sessions, at once; the answer shows ' +
      'what it was. The API keys it created or holds (`creator`, `personal_for` in GET /client/api-keys) are disabled in ' +
      'the same transaction (`disabled_reason` `holder_removed`; they cannot be enabled again): refused at once by this ' +
      'server and by every other within the authentication cache’s 60 s. The owner cannot be removed (409 `state`): ' +
      'transfer ownership first. 409 `state` also when the user signed in or got a key meanwhile: read it and try again.',
    params: UserIdParams,
    responses: { 200: UserView },
    errors: [404, 409],
  },
  [userStore, clock, authenticator],
  async ({ params }, { deps, clientId }) => {
    const { view, disabledKeys } = await removeUser(deps, clientId, params.id);
    for (const keyHash of disabledKeys) deps.authenticator.forget(keyHash);
    return ok(view, 'User removed');
  },
);
