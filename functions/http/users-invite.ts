import { accepted } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clientStore } from '../../shared/composition/providers/client-store.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { sessionStore } from '../../shared/composition/providers/session-store.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { sessionOf } from '../../shared/domain/auth/session-user.js';
import { INVITATION_LIMITS, inviteUser } from '../../shared/domain/users/invite-user.js';
import { InvitationView, InviteUserBody } from '../../shared/domain/users/schemas.js';

/** POST /client/users — invites a user; the e-mail (a one-time sign-in link, 72 h) goes out after the answer. */
export const handler = jsonApi(
  {
    summary: 'Invite a dashboard user',
    description:
      'Extra: invites a user to the dashboard; the e-mail, from the service’s own address, is sent after ' +
      'the answer. The same 202 for every address that is not already a user of this client: a new address becomes a ' +
      'user now (listed, counted in `max_users`) and gets a one-time sign-in link, valid 72 hours; an address that has ' +
      'an account with another client (an address belongs to one account) becomes no user here and gets an e-mail ' +
      'that says it was invited, nothing else. 409 `unique` (`email`): the address is already a user of this client. ' +
      '409 `max` (`users`): the plan’s `max_users` is reached. 429 `rate_limited`: more than ' +
      `${INVITATION_LIMITS.perClientPerDay} invitations by the client, or ${INVITATION_LIMITS.perAddressPerDay} to one address, in a UTC day.`,
    body: InviteUserBody,
    responses: { 202: InvitationView },
    errors: [409, 429],
  },
  [userStore, clientStore, sessionStore, queue, ids, clock],
  async ({ body }, { deps, clientId, principal }) =>
    accepted(await inviteUser(deps, clientId, sessionOf(principal).user_id, body), 'Invitation on its way'),
);
