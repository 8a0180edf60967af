import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { changeUserRole } from '../../shared/domain/users/manage-users.js';
import { UpdateUserBody, UserIdParams, UserView } from '../../shared/domain/users/schemas.js';

/** PATCH /client/users/{id} — a new role; role 1 transfers ownership. */
export const handler = jsonApi(
  {
    summary: 'Change a user’s role',
    description:
      'Extra (issue 23). Role 1 transfers ownership: that user becomes the owner and the current owner an admin (2), ' +
      'at once. The owner’s own role changes only that way (409 `state`). The changed users’ sessions end: they sign ' +
      'in again with their new role.',
    params: UserIdParams,
    body: UpdateUserBody,
    responses: { 200: UserView },
    errors: [404, 409],
  },
  [userStore, clock],
  async ({ params, body }, { deps, clientId }) => ok(await changeUserRole(deps, clientId, params.id, body.role), 'Role changed'),
);
