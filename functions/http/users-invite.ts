import { created } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { API_BASE_PATH } from '../routes.js';
import { clientStore } from '../../shared/composition/providers/client-store.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { sessionStore } from '../../shared/composition/providers/session-store.js';
import { systemMail } from '../../shared/composition/providers/system-mail.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { sessionOf } from '../../shared/domain/auth/session-user.js';
import { inviteUser } from '../../shared/domain/users/manage-users.js';
import { InvitedUserView, InviteUserBody } from '../../shared/domain/users/schemas.js';
import { logger } from '../../shared/logger.js';

/** POST /client/users — invites a user: the account, and an e-mail with a one-time sign-in link (72 h). */
export const handler = jsonApi(
  {
    summary: 'Invite a dashboard user',
    description:
      'Extra (issue 23): creates the user and e-mails it a one-time sign-in link, valid 72 hours, from the service’s ' +
      'own address. `invitation_sent` false: the e-mail could not be sent now; the user exists and can ask for a link ' +
      'on the sign-in page. 409 `unique` (`email`): the address already has an account, in this client or another ' +
      '(an address belongs to one account). 409 `max` (`users`): the plan’s `max_users` is reached.',
    body: InviteUserBody,
    responses: { 201: InvitedUserView },
    errors: [409],
  },
  [userStore, clientStore, sessionStore, systemMail, ids, clock],
  async ({ body }, { deps, clientId, principal }) => {
    const invited = await inviteUser(
      deps,
      clientId,
      sessionOf(principal).user_id,
      body,
      `${deps.config.PUBLIC_BASE_URL}${API_BASE_PATH}/auth/callback`,
      (error) => logger.error('invitation e-mail not sent', { error: error as Error }),
    );
    return created(invited, invited.invitation_sent ? 'User invited; the invitation is on its way' : 'User created; the invitation could not be sent');
  },
);
