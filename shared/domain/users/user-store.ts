import type { Role } from './roles.js';

/** A dashboard user of one client, as stored. */
export interface UserRecord {
  id: number;
  client_id: number;
  /** Trimmed, lower-case; unique across every client (sign-in finds one account by it). */
  email: string;
  name: string;
  role: Role;
  created_at: string;
  updated_at: string;
  last_sign_in_at?: string;
  /** The user who invited this one; absent for a client's first owner. */
  invited_by?: number;
  /** Raised by every sign-in: removal and role changes are conditioned on it (no session slips past them). */
  session_version?: number;
  /** Raised by every API key made for the user (created or rotated): removal and demotion are conditioned on it too. */
  api_key_version?: number;
}

/**
 * What a removal or role change did: its outcome, and the digests of the API keys it disabled (the caller drops them
 * from its container's authentication cache at once). On `stale` or `missing`, only keys disabled before the
 * transaction (a user holding very many) are listed.
 */
export interface UserChange<Done extends string> {
  outcome: Done | 'stale' | 'missing';
  disabledKeys: string[];
}

/** The client's user count and its owner (one item, moved in each user transaction). */
export interface UserRoster {
  count: number;
  owner_id: number | undefined;
}

export type CreateUserOutcome = 'created' | 'limit' | 'email_taken';

export interface UserStore {
  get(clientId: number, userId: number): Promise<UserRecord | undefined>;
  list(clientId: number): Promise<UserRecord[]>;
  /** The account an address belongs to (any client). */
  findByEmail(email: string): Promise<UserRecord | undefined>;
  roster(clientId: number): Promise<UserRoster>;
  /**
   * Stores a user with its e-mail lock, raising the count below `maxUsers`, in one transaction; a role 1 user becomes
   * the owner and only where the client has none.
   */
  create(user: UserRecord, maxUsers: number): Promise<CreateUserOutcome>;
  /**
   * Sets the role of `user` as it was read (same `session_version` and `api_key_version`) and ends its sessions; a role
   * that may not hold API keys disables the keys it created or holds, in the same transaction. `stale` when the user
   * changed (signed in, got a key) meanwhile, `missing` when it is gone.
   */
  setRole(user: UserRecord, role: Role, at: string): Promise<UserChange<'updated'>>;
  /**
   * Makes `next` the owner and `current` an admin (2), their sessions with them, and the roster's owner: one transaction,
   * conditioned on both as read.
   */
  transferOwnership(current: UserRecord, next: UserRecord, at: string): Promise<'transferred' | 'stale'>;
  /**
   * Deletes a user that is not the owner (as read), its e-mail lock and its sessions, lowering the count, and disables
   * the API keys it created or holds: one transaction.
   */
  remove(user: UserRecord, at: string): Promise<UserChange<'removed'>>;
}
