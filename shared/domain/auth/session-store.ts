import type { Role } from '../users/roles.js';
import type { UserRecord } from '../users/user-store.js';

/** A dashboard session as stored: only digests of its id and of its CSRF token, never the values. */
export interface SessionRecord {
  session_hash: string;
  client_id: number;
  user_id: number;
  email: string;
  /** The user's role, kept with the session (role changes update it), so a request reads nothing else. */
  role: Role;
  csrf_hash: string;
  created_at: string;
  last_seen_at: string;
  /** 12 h after the last use (moved forward at most every SESSION_TOUCH_MS). */
  idle_expires_at: string;
  /** 7 days after the sign-in, whatever the use. */
  absolute_expires_at: string;
}

/** A one-time sign-in link as stored: the digest of its token. */
export interface SignInLinkRecord {
  token_hash: string;
  client_id: number;
  user_id: number;
  purpose: 'sign_in' | 'invitation';
  /** The address it was mailed to: the page a browser that did not ask for it shows before signing in. */
  email?: string;
  /** Digest of the sign-in cookie of the browser that asked for it (sign-in links only). */
  binding_hash?: string;
  created_at: string;
  /** The link works until then (the item's TTL follows, later). */
  valid_until: string;
}

/**
 * What the account throttles count, each under the digest of its value: sign-in requests per (address, IP) and per IP
 * (15 minutes); invitations per client and per recipient (a day).
 */
export type ThrottleKind = 'addr_ip' | 'ip' | 'invite_client' | 'invite_to' | 'broadcast_test';

export type StartSessionOutcome = 'started' | 'used' | 'stale';

export interface SessionStore {
  saveLink(link: SignInLinkRecord): Promise<void>;
  getLink(tokenHash: string): Promise<SignInLinkRecord | undefined>;
  /**
   * Consumes the link (only while it exists), stores the session with its index item and records the sign-in on the
   * user as read (same `session_version`): one transaction. `used`: the link is gone; `stale`: the user changed or is gone.
   */
  startSession(link: SignInLinkRecord, user: UserRecord, session: SessionRecord): Promise<StartSessionOutcome>;
  getSession(sessionHash: string): Promise<SessionRecord | undefined>;
  /** Moves the idle expiry forward (only while the session exists). */
  touch(session: SessionRecord, lastSeenAt: string, idleExpiresAt: string): Promise<void>;
  /** Deletes the session and its index item. */
  end(session: SessionRecord): Promise<void>;
  /** Adds one request to a throttle window and answers its count including it (one write, nothing read first). */
  countSignIn(kind: ThrottleKind, valueHash: string, windowStart: number, expiresAt: number): Promise<number>;
}
