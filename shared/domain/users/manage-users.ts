import type { Clock, Ids } from '../../platform.js';
import { conflict, notFound } from '../../errors.js';
import { planOf } from '../settings/effective-settings.js';
import { ROLES, type Role } from './roles.js';
import { toUserView, type UserView } from './schemas.js';
import type { UserRecord, UserStore } from './user-store.js';

/** The client's users, oldest first (ids grow with time). One Query. */
export async function listUsers(deps: { users: UserStore }, clientId: number): Promise<UserView[]> {
  const users = await deps.users.list(clientId);
  return users.sort((a, b) => a.id - b.id).map(toUserView);
}

const maxUsersReached = (max: number) =>
  conflict('max', 'users', `The plan allows at most ${max} users; remove one or upgrade the plan`);
const emailTaken = () =>
  conflict('unique', 'email', 'This address already has an account (an address belongs to one client)');

/**
 * Creates a client's user with its e-mail lock, within the plan's `max_users`. Used for a client's first owner (admin
 * CLI, demo client) and for invitations.
 */
export async function addUser(
  deps: { clock: Clock; ids: Ids; users: UserStore },
  client: { id: number; plan: string },
  input: { email: string; name: string; role: Role; invited_by?: number },
): Promise<UserRecord> {
  const now = deps.clock.now().toISOString();
  const user: UserRecord = {
    id: await deps.ids.next('user'),
    client_id: client.id,
    email: input.email.trim().toLowerCase(),
    name: input.name,
    role: input.role,
    created_at: now,
    updated_at: now,
    ...(input.invited_by !== undefined ? { invited_by: input.invited_by } : {}),
  };
  const max = planOf(client.plan).max_users;
  const outcome = await deps.users.create(user, max);
  if (outcome === 'limit') throw maxUsersReached(max);
  if (outcome === 'email_taken') throw emailTaken();
  return user;
}

const changedMeanwhile = () =>
  conflict('state', 'user', 'The user changed meanwhile (another change or a sign-in); read it and try again');

/**
 * PATCH /client/users/{id}: a new role. Role 1 transfers ownership (the owner becomes admin) in one transaction; the
 * owner's own role changes only that way (409 `state`). A changed user's sessions end: it signs in again with its new role.
 */
export async function changeUserRole(
  deps: { clock: Clock; users: UserStore },
  clientId: number,
  userId: number,
  role: Role,
): Promise<{ view: UserView; disabledKeys: string[] }> {
  const [user, roster] = await Promise.all([deps.users.get(clientId, userId), deps.users.roster(clientId)]);
  if (!user) throw notFound('id', 'No such user');
  if (user.role === role) return { view: toUserView(user), disabledKeys: [] };
  const at = deps.clock.now().toISOString();
  if (user.role === ROLES.owner) {
    throw conflict(
      'state',
      'role',
      "The owner's role changes only by transferring ownership: give another user role 1",
    );
  }
  let disabledKeys: string[] = [];
  if (role === ROLES.owner) {
    // The owner becomes an admin, who may still hold keys: no key ends with a transfer.
    const owner = roster.owner_id === undefined ? undefined : await deps.users.get(clientId, roster.owner_id);
    if (!owner) throw conflict('state', 'role', 'The client has no owner to transfer from');
    if ((await deps.users.transferOwnership(owner, user, at)) === 'stale') throw changedMeanwhile();
  } else {
    const change = await deps.users.setRole(user, role, at);
    disabledKeys = change.disabledKeys;
    if (change.outcome === 'missing') throw notFound('id', 'No such user');
    if (change.outcome === 'stale') throw changedMeanwhile();
  }
  return { view: toUserView({ ...user, role, updated_at: at }), disabledKeys };
}

/**
 * DELETE /client/users/{id}: the user, its e-mail lock and its sessions, and the API keys it created or holds disabled,
 * at once; never the owner (409 `state`). The caller forgets `disabledKeys` in its authentication cache.
 */
export async function removeUser(
  deps: { clock: Clock; users: UserStore },
  clientId: number,
  userId: number,
): Promise<{ view: UserView; disabledKeys: string[] }> {
  const user = await deps.users.get(clientId, userId);
  if (!user) throw notFound('id', 'No such user');
  if (user.role === ROLES.owner) throw conflict('state', 'id', 'The owner cannot be removed; transfer ownership first');
  const change = await deps.users.remove(user, deps.clock.now().toISOString());
  if (change.outcome === 'missing') throw notFound('id', 'No such user');
  if (change.outcome === 'stale') throw changedMeanwhile();
  return { view: toUserView(user), disabledKeys: change.disabledKeys };
}
