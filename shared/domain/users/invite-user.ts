import type { Clock, Ids, Queue } from '../../platform.js';
import { AppError, conflict, notFound, rateLimited } from '../../errors.js';
import { digestToken, INVITATION_LINK_MS } from '../auth/session-tokens.js';
import type { SessionStore } from '../auth/session-store.js';
import { issueLink } from '../auth/sign-in.js';
import { invitationMessage, invitationToAccountHolderMessage } from '../auth/sign-in-mail.js';
import type { SystemMail } from '../system-mail/system-mail.js';
import type { ClientStore } from '../clients/client-store.js';
import { addUser } from './manage-users.js';
import { ROLE_NAMES, type Role } from './roles.js';
import type { InvitationView } from './schemas.js';
import type { UserStore } from './user-store.js';

/**
 * Invitations a client may send per UTC day: in all, and to one address. Each is an e-mail from the service's own
 * sender, so a loop of invite → remove → invite must end; a team that grows faster asks the operator.
 */
export const INVITATION_LIMITS = { perClientPerDay: 20, perAddressPerDay: 3 } as const;
const DAY_SECONDS = 24 * 60 * 60;

export interface InviteDeps {
  clock: Clock;
  ids: Ids;
  users: UserStore;
  clients: ClientStore;
  sessions: SessionStore;
  queue: Queue;
}

/**
 * POST /client/users: the same answer whether or not the address has an account somewhere (no answer tells another
 * client's users apart):
 * - a new address → the user, now (listed, counted against `max_users`); its invitation with a link goes out after
 *   the answer;
 * - an address of another client → no user here (an address belongs to one account); it gets an e-mail saying it
 *   was invited, nothing else;
 * - an address of this client → 409 `unique` (the client's own users are no secret to it).
 * Counted against the client's and the address's daily limits first (429). Requests: one wave (client, inviter, both
 * counters, the address's account), a TransactWriteItems for a new user, one SQS send.
 */
export async function inviteUser(
  deps: InviteDeps,
  clientId: number,
  inviterId: number,
  input: { email: string; name: string; role: Role },
): Promise<InvitationView> {
  const email = input.email.trim().toLowerCase();
  const now = deps.clock.now();
  const day = Math.floor(now.getTime() / 1000 / DAY_SECONDS) * DAY_SECONDS;
  const expiresAt = day + 2 * DAY_SECONDS;
  const [client, byClient, byAddress, account] = await Promise.all([
    deps.clients.get(clientId),
    deps.sessions.countSignIn('invite_client', digestToken(String(clientId)), day, expiresAt),
    deps.sessions.countSignIn('invite_to', digestToken(`${clientId}\n${email}`), day, expiresAt),
    deps.users.findByEmail(email),
  ]);
  if (!client) throw notFound('client');
  if (byClient > INVITATION_LIMITS.perClientPerDay) {
    throw rateLimited(
      `At most ${INVITATION_LIMITS.perClientPerDay} invitations a day per client; try again tomorrow (UTC)`,
    );
  }
  if (byAddress > INVITATION_LIMITS.perAddressPerDay) {
    throw rateLimited(
      `At most ${INVITATION_LIMITS.perAddressPerDay} invitations a day to one address; try again tomorrow (UTC)`,
    );
  }
  if (account?.client_id === clientId)
    throw conflict('unique', 'email', 'This address already has an account in this client');
  if (!account) {
    try {
      await addUser(deps, client, { ...input, email, invited_by: inviterId });
    } catch (error) {
      // Taken between the read and the write: by whom is for the queued mail to find out, not for this answer.
      if (!(error instanceof AppError && error.items[0]?.condition === 'unique')) throw error;
    }
  }
  await deps.queue.send('system-mail', {
    kind: 'invitation',
    client_id: clientId,
    inviter_id: inviterId,
    email,
    name: input.name,
    role: input.role,
  });
  return {
    email,
    name: input.name,
    role: input.role,
    role_name: ROLE_NAMES[input.role],
    invited_by: inviterId,
    valid_until: new Date(now.getTime() + INVITATION_LINK_MS).toISOString(),
  };
}

/** What sending a queued invitation did, for the log only. */
export type InvitationOutcome = 'sent' | 'sent_to_account_holder' | 'gone' | 'rejected';

/**
 * send-system-mail, an invitation: the invitee's account decides the e-mail — a user of the inviting client gets a
 * one-time link (72 h); an address of another client gets the e-mail that says it was invited, nothing else; an
 * address with no account (the user was removed meanwhile) gets nothing. Requests: one wave (lock + user, client,
 * inviter), PutItem link (a user of this client), SES SendEmail. A transient SES failure is thrown (the message
 * comes back; a link written before it expires unused).
 */
export async function sendInvitation(
  deps: { clock: Clock; users: UserStore; clients: ClientStore; sessions: SessionStore; systemMail: SystemMail },
  message: { client_id: number; inviter_id: number; email: string },
  callbackUrl: string,
): Promise<InvitationOutcome> {
  const [account, client, inviter] = await Promise.all([
    deps.users.findByEmail(message.email),
    deps.clients.get(message.client_id),
    deps.users.get(message.client_id, message.inviter_id),
  ]);
  if (!account || !client) return 'gone';
  const inviterName = inviter?.name ?? 'A colleague';
  if (account.client_id !== message.client_id) {
    const sent = await deps.systemMail.send(invitationToAccountHolderMessage(account.email, client.name, inviterName));
    return sent.kind === 'sent' ? 'sent_to_account_holder' : 'rejected';
  }
  const token = await issueLink(deps, account, 'invitation', INVITATION_LINK_MS);
  const sent = await deps.systemMail.send(
    invitationMessage(account.email, `${callbackUrl}?token=${token}`, client.name, inviterName),
  );
  return sent.kind === 'sent' ? 'sent' : 'rejected';
}
