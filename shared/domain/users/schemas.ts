import * as z from '../../validation/zod.js';
import { plainIdParam } from '../../validation/plain-id.js';
import { Email } from '../contacts/schemas.js';
import { UtcTimestamp } from '../time/utc-timestamp.js';
import { ROLE_NAMES, type Role } from './roles.js';
import type { UserRecord } from './user-store.js';
import { USER_NAME_MAX } from '../../public/account-rules.js';

export const UserIdParams = z.object({ id: plainIdParam(15, 'The user id') });

const RoleValue = <const R extends readonly [Role, ...Role[]]>(allowed: R, description: string) =>
  z.literal(allowed, { error: `Must be one of ${allowed.join(', ')}` }).check(z.meta({ description }));

const Name = z.string({ error: (i) => (i.input === undefined ? 'name is required' : 'name must be a string') }).check(
  z.trim(),
  z.minLength(1, 'Must not be blank'),
  z.maxLength(USER_NAME_MAX, `Must be at most ${USER_NAME_MAX} characters`),
  z.meta({
    pattern: '\\S',
    description: `The user’s name, as the dashboard shows it (1–${USER_NAME_MAX} characters, not blank)`,
  }),
);

/** POST /client/users: an invitation. Ownership is never given here: PATCH another user's role to 1 transfers it. */
export const InviteUserBody = z.object({
  email: Email.check(
    z.meta({
      description:
        'An address of this client’s users answers 409 `unique`; any other address, with an account elsewhere or none, the same 202',
    }),
  ),
  name: Name,
  role: RoleValue([2, 3, 4], '2 admin, 3 member, 4 viewer (1 owner only by transfer: PATCH /client/users/{id})'),
});

/** PATCH /client/users/{id}: role 1 transfers ownership to that user (the current owner becomes 2, admin). */
export const UpdateUserBody = z.object({
  role: RoleValue(
    [1, 2, 3, 4],
    '1 owner (transfers ownership: the current owner becomes 2), 2 admin, 3 member, 4 viewer',
  ),
});

const UserFields = z.object({
  id: z.int().check(z.gte(1)),
  email: z.string(),
  name: z.string(),
  role: z.int().check(z.gte(1), z.lte(4), z.meta({ description: '1 owner, 2 admin, 3 member, 4 viewer' })),
  role_name: z.enum(['owner', 'admin', 'member', 'viewer']),
  invited_by: z.nullable(z.int()),
  last_sign_in_at: z.nullable(UtcTimestamp),
  created_at: UtcTimestamp,
  updated_at: UtcTimestamp,
});

/** A dashboard user (OpenAPI `User`). */
export const UserView = UserFields.check(
  z.meta({ id: 'User', description: 'A user of the dashboard, with its role in the client.' }),
);
export type UserView = z.output<typeof UserView>;

/**
 * What an invitation answers (OpenAPI `Invitation`): the same for every address, whether or not it has an account
 * with another client, so the answer tells nothing about other clients' users.
 */
export const InvitationView = z
  .object({
    email: z.string(),
    name: z.string(),
    role: UserFields.shape.role,
    role_name: UserFields.shape.role_name,
    invited_by: z.int(),
    valid_until: UtcTimestamp.check(z.meta({ description: 'The invitation link works until then (72 hours)' })),
  })
  .check(z.meta({ id: 'Invitation', description: 'An invitation on its way: the e-mail is sent after the answer.' }));
export type InvitationView = z.output<typeof InvitationView>;

export const toUserView = (user: UserRecord): UserView => ({
  id: user.id,
  email: user.email,
  name: user.name,
  role: user.role,
  role_name: ROLE_NAMES[user.role],
  invited_by: user.invited_by ?? null,
  last_sign_in_at: user.last_sign_in_at ?? null,
  created_at: user.created_at,
  updated_at: user.updated_at,
});
