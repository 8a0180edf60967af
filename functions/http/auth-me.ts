import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import * as z from '../../shared/validation/zod.js';
import { clientStore } from '../../shared/composition/providers/client-store.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { unauthorized } from '../../shared/errors.js';
import { sessionOf } from '../../shared/domain/auth/session-user.js';
import { toUserView, UserView } from '../../shared/domain/users/schemas.js';

const Me = z.object({
  user: UserView,
  client: z.object({
    id: z.int(),
    client_id: z.string(),
    name: z.string(),
    plan: z.string(),
    status: z.enum(['active', 'suspended']),
  }),
});

/** GET /auth/me — the signed-in user, its role and its client. */
export const handler = jsonApi(
  {
    summary: 'The signed-in user',
    description: 'Extra: the dashboard user of the session, with its role, and its client. Sessions only.',
    tags: ['Sign-in'],
    responses: { 200: Me },
  },
  [userStore, clientStore],
  async (_input, { deps, principal }) => {
    const session = sessionOf(principal);
    const [user, client] = await Promise.all([
      deps.users.get(session.client_id, session.user_id),
      deps.clients.get(session.client_id),
    ]);
    if (!user) throw unauthorized('The session has ended; sign in again');
    if (!client) throw unauthorized('The session has ended; sign in again');
    return ok({
      user: toUserView(user),
      client: {
        id: client.id,
        client_id: client.client_id,
        name: client.name,
        plan: client.plan,
        status: client.status,
      },
    });
  },
);
