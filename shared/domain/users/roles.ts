/**
 * A user's role in its client, as SPEC's role int:
 * 1 owner — everything, users included; 2 admin — everything but users; 3 member — reads everything, changes
 * templates, workflows, contacts (and reports events, retries executions), no keys, settings or webhooks; 4 viewer — reads.
 */
export const ROLES = { owner: 1, admin: 2, member: 3, viewer: 4 } as const;
export type RoleName = keyof typeof ROLES;
export type Role = (typeof ROLES)[RoleName];

export const ROLE_NAMES: Record<Role, RoleName> = { 1: 'owner', 2: 'admin', 3: 'member', 4: 'viewer' };

/**
 * What a request does, as the roles see it: `read` any read; `content` a change to templates, workflows, contacts,
 * events or executions; `manage` a change to settings or webhooks; `keys` anything about API keys; `users` a change
 * to the client's users.
 */
export type Permission = 'read' | 'content' | 'manage' | 'keys' | 'users';

const GRANTS: Record<Role, readonly Permission[]> = {
  1: ['read', 'content', 'manage', 'keys', 'users'],
  2: ['read', 'content', 'manage', 'keys'],
  3: ['read', 'content'],
  4: ['read'],
};

export const roleGrants = (role: Role, permission: Permission): boolean => GRANTS[role].includes(permission);

/** The roles that hold `permission`, by name (the document states them per operation). */
export const rolesWith = (permission: Permission): RoleName[] =>
  (Object.keys(GRANTS).map(Number) as Role[])
    .filter((role) => roleGrants(role, permission))
    .map((role) => ROLE_NAMES[role]);

export const isRole = (value: unknown): value is Role => value === 1 || value === 2 || value === 3 || value === 4;
