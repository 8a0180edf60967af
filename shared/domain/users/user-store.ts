import type { Role } from './roles.js';

/** A dashboard user of one client, as stored (issue 23 §1). */
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
   * Sets the role of `user` as it was read (same `session_version`), and of its sessions; `stale` when the user changed
   * (or signed in) meanwhile, `missing` when it is gone.
   */
  setRole(user: UserRecord, role: Role, at: string): Promise<'updated' | 'stale' | 'missing'>;
  /**
   * Makes `next` the owner and `current` an admin (2), their sessions with them, and the roster's owner: one transaction,
   * conditioned on both as read.
   */
  transferOwnership(current: UserRecord, next: UserRecord, at: string): Promise<'transferred' | 'stale'>;
  /** Deletes a user that is not the owner, its e-mail lock and its sessions, lowering the count: one transaction. */
  remove(user: UserRecord): Promise<'removed' | 'stale' | 'missing'>;
}
