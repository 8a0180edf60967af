import type {
  CreateUserOutcome,
  UserChange,
  UserRecord,
  UserRoster,
  UserStore,
} from '../../domain/users/user-store.js';
import type { ApiKeyRecord, KeyDisabledReason } from '../../domain/api-keys/api-key-store.js';
import { isHeldBy } from '../../domain/api-keys/key-holders.js';
import { ROLES, roleGrants, type Role } from '../../domain/users/roles.js';
import type {
  SessionRecord,
  SessionStore,
  SignInLinkRecord,
  StartSessionOutcome,
  ThrottleKind,
} from '../../domain/auth/session-store.js';

/** Users, sessions and links of the memory adapters (unit tests): one shared state, like the table's items. */
export class MemoryAccounts {
  readonly users = new Map<string, UserRecord>();
  readonly emails = new Map<string, { client_id: number; user_id: number }>();
  readonly rosters = new Map<number, UserRoster>();
  readonly links = new Map<string, SignInLinkRecord>();
  readonly sessions = new Map<string, SessionRecord>();
  readonly signInCounts = new Map<string, number>();
  /** The API keys by digest (the memory key store's map, when wired): what ends with a removed or demoted user. */
  apiKeys?: Map<string, ApiKeyRecord>;

  /** Disables the enabled keys the user created or holds; their digests. */
  disableKeysOf(clientId: number, userId: number, reason: KeyDisabledReason, at: string): string[] {
    const ended: string[] = [];
    for (const key of this.apiKeys?.values() ?? []) {
      if (key.client_id !== clientId || !isHeldBy(key, userId)) continue;
      if (key.enabled) ended.push(key.key_hash);
      Object.assign(key, { enabled: false, disabled_reason: reason, disabled_at: key.disabled_at ?? at });
    }
    return ended;
  }

  endSessionsOf(clientId: number, userId: number): void {
    for (const [hash, s] of this.sessions)
      if (s.client_id === clientId && s.user_id === userId) this.sessions.delete(hash);
  }
}

const userKey = (clientId: number, userId: number) => `${clientId}/${userId}`;
const sameVersion = (stored: UserRecord | undefined, read: UserRecord) =>
  stored !== undefined &&
  stored.session_version === read.session_version &&
  stored.api_key_version === read.api_key_version;

export class MemoryUserStore implements UserStore {
  constructor(readonly data: MemoryAccounts = new MemoryAccounts()) {}

  async get(clientId: number, userId: number): Promise<UserRecord | undefined> {
    const u = this.data.users.get(userKey(clientId, userId));
    return u && structuredClone(u);
  }
  async list(clientId: number): Promise<UserRecord[]> {
    return [...this.data.users.values()].filter((u) => u.client_id === clientId).map((u) => structuredClone(u));
  }
  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const lock = this.data.emails.get(email.toLowerCase());
    return lock && this.get(lock.client_id, lock.user_id);
  }
  async roster(clientId: number): Promise<UserRoster> {
    return { ...(this.data.rosters.get(clientId) ?? { count: 0, owner_id: undefined }) };
  }
  async create(user: UserRecord, maxUsers: number): Promise<CreateUserOutcome> {
    if (this.data.users.has(userKey(user.client_id, user.id))) throw new Error(`user ${user.id} exists`);
    if (this.data.emails.has(user.email)) return 'email_taken';
    const roster = this.data.rosters.get(user.client_id) ?? { count: 0, owner_id: undefined };
    if (roster.count >= maxUsers) return 'limit';
    if (user.role === ROLES.owner && roster.owner_id !== undefined) throw new Error('the client has an owner');
    this.data.users.set(userKey(user.client_id, user.id), structuredClone(user));
    this.data.emails.set(user.email, { client_id: user.client_id, user_id: user.id });
    this.data.rosters.set(user.client_id, {
      count: roster.count + 1,
      owner_id: user.role === ROLES.owner ? user.id : roster.owner_id,
    });
    return 'created';
  }
  async setRole(user: UserRecord, role: Role, at: string): Promise<UserChange<'updated'>> {
    const stored = this.data.users.get(userKey(user.client_id, user.id));
    if (!stored) return { outcome: 'missing', disabledKeys: [] };
    if (!sameVersion(stored, user) || stored.role !== user.role) return { outcome: 'stale', disabledKeys: [] };
    Object.assign(stored, { role, updated_at: at, session_version: (stored.session_version ?? 0) + 1 });
    this.data.endSessionsOf(user.client_id, user.id);
    const disabledKeys = roleGrants(role, 'keys')
      ? []
      : this.data.disableKeysOf(user.client_id, user.id, 'holder_demoted', at);
    return { outcome: 'updated', disabledKeys };
  }
  async transferOwnership(current: UserRecord, next: UserRecord, at: string): Promise<'transferred' | 'stale'> {
    const a = this.data.users.get(userKey(current.client_id, current.id));
    const b = this.data.users.get(userKey(next.client_id, next.id));
    const roster = this.data.rosters.get(current.client_id);
    if (
      !a ||
      !b ||
      !sameVersion(a, current) ||
      !sameVersion(b, next) ||
      a.role !== ROLES.owner ||
      b.role !== next.role ||
      roster?.owner_id !== a.id
    ) {
      return 'stale';
    }
    Object.assign(a, { role: ROLES.admin, updated_at: at, session_version: (a.session_version ?? 0) + 1 });
    Object.assign(b, { role: ROLES.owner, updated_at: at, session_version: (b.session_version ?? 0) + 1 });
    roster.owner_id = b.id;
    this.data.endSessionsOf(a.client_id, a.id);
    this.data.endSessionsOf(b.client_id, b.id);
    return 'transferred';
  }
  async remove(user: UserRecord, at: string): Promise<UserChange<'removed'>> {
    const stored = this.data.users.get(userKey(user.client_id, user.id));
    if (!stored) return { outcome: 'missing', disabledKeys: [] };
    if (!sameVersion(stored, user) || stored.role === ROLES.owner) return { outcome: 'stale', disabledKeys: [] };
    this.data.users.delete(userKey(user.client_id, user.id));
    this.data.emails.delete(stored.email);
    const roster = this.data.rosters.get(user.client_id)!;
    roster.count -= 1;
    this.data.endSessionsOf(user.client_id, user.id);
    return { outcome: 'removed', disabledKeys: this.data.disableKeysOf(user.client_id, user.id, 'holder_removed', at) };
  }
}

export class MemorySessionStore implements SessionStore {
  constructor(readonly data: MemoryAccounts = new MemoryAccounts()) {}

  async saveLink(link: SignInLinkRecord): Promise<void> {
    this.data.links.set(link.token_hash, structuredClone(link));
  }
  async getLink(tokenHash: string): Promise<SignInLinkRecord | undefined> {
    const l = this.data.links.get(tokenHash);
    return l && structuredClone(l);
  }
  async startSession(link: SignInLinkRecord, user: UserRecord, session: SessionRecord): Promise<StartSessionOutcome> {
    if (!this.data.links.has(link.token_hash)) return 'used';
    const stored = this.data.users.get(userKey(user.client_id, user.id));
    if (!sameVersion(stored, user)) return 'stale';
    this.data.links.delete(link.token_hash);
    this.data.sessions.set(session.session_hash, structuredClone(session));
    Object.assign(stored!, {
      last_sign_in_at: session.created_at,
      session_version: (stored!.session_version ?? 0) + 1,
    });
    return 'started';
  }
  async getSession(sessionHash: string): Promise<SessionRecord | undefined> {
    const s = this.data.sessions.get(sessionHash);
    return s && structuredClone(s);
  }
  async touch(session: SessionRecord, lastSeenAt: string, idleExpiresAt: string): Promise<void> {
    const s = this.data.sessions.get(session.session_hash);
    if (s) Object.assign(s, { last_seen_at: lastSeenAt, idle_expires_at: idleExpiresAt });
  }
  async end(session: SessionRecord): Promise<void> {
    this.data.sessions.delete(session.session_hash);
  }
  async countSignIn(kind: ThrottleKind, valueHash: string, windowStart: number): Promise<number> {
    const key = `${kind}/${valueHash}/${windowStart}`;
    const n = (this.data.signInCounts.get(key) ?? 0) + 1;
    this.data.signInCounts.set(key, n);
    return n;
  }
}
