import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import * as z from '../../shared/validation/zod.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { listUsers } from '../../shared/domain/users/manage-users.js';
import { UserView } from '../../shared/domain/users/schemas.js';

/** GET /client/users — the client's dashboard users (session only). */
export const handler = jsonApi(
  {
    summary: 'List the dashboard users',
    description: 'Extra: the client’s users with their roles, oldest first.',
    responses: { 200: z.object({ users: z.array(UserView) }) },
  },
  [userStore],
  async (_input, { deps, clientId }) => ok({ users: await listUsers(deps, clientId) }),
);
