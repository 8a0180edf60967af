import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { authenticator } from '../../shared/composition/providers/authenticator.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { changeUserRole } from '../../shared/domain/users/manage-users.js';
import { UpdateUserBody, UserIdParams, UserView } from '../../shared/domain/users/schemas.js';

/** PATCH /client/users/{id} — a new role; role 1 transfers ownership; a role without keys disables the user's keys. */
export const handler = jsonApi(
  {
    summary: 'Change a user’s role',
    description:
      'Extra. Role 1 transfers ownership: that user becomes the owner and the current owner an admin (2), ' +
      'at once. The owner’s own role changes only that way (409 `state`). The changed users’ sessions end: they sign ' +
      'in again with their new role. A role that may not hold API keys (3 member, 4 viewer) disables, in the same ' +
      'transaction, the keys the user created or holds (`disabled_reason` `holder_demoted`; they cannot be enabled ' +
      'again), refused within the authentication cache’s 60 s everywhere.',
    params: UserIdParams,
    body: UpdateUserBody,
    responses: { 200: UserView },
    errors: [404, 409],
  },
  [userStore, clock, authenticator],
  async ({ params, body }, { deps, clientId }) => {
    const { view, disabledKeys } = await changeUserRole(deps, clientId, params.id, body.role);
    for (const keyHash of disabledKeys) deps.authenticator.forget(keyHash);
    return ok(view, 'Role changed');
  },
);
