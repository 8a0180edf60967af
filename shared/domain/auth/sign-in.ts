import type { Clock } from '../../ports.js';
import { rateLimited } from '../../errors.js';
import type { SystemMail } from '../system-mail/system-mail.js';
import type { UserStore } from '../users/user-store.js';
import type { SessionRecord, SessionStore, SignInLinkRecord } from './session-store.js';
import { digestToken, looksLikeToken, newToken, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, SIGN_IN_LINK_MS } from './session-tokens.js';
import { signInMessage } from './sign-in-mail.js';

/** Sign-in requests allowed per window: per address, and per client IP (issue 23 §2). */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const SIGN_IN_LIMITS = { addr: 5, ip: 30 } as const;

interface RequestDeps {
  clock: Clock;
  users: UserStore;
  sessions: SessionStore;
  systemMail: SystemMail;
}

/** What went wrong sending the link, for the log only: the answer is the same 202 whatever happens here. */
export type SignInOutcome = 'sent' | 'no_account' | 'rejected' | 'failed';

/**
 * POST /auth/sign-in: counts the request against its address and its IP (429 past either limit, the same whether the
 * address has an account or not), then — only for an account — stores a one-time link (its token's digest, 15 min) and
 * e-mails it. The caller answers one 202 for every outcome: nothing tells whether the address has an account.
 */
export async function requestSignIn(
  deps: RequestDeps,
  input: { email: string; ip: string },
  callbackUrl: string,
  onSendError: (error: unknown) => void,
): Promise<SignInOutcome> {
  const now = deps.clock.now();
  const windowStart = Math.floor(now.getTime() / 1000 / SIGN_IN_WINDOW_SECONDS) * SIGN_IN_WINDOW_SECONDS;
  const expiresAt = windowStart + 2 * SIGN_IN_WINDOW_SECONDS;
  // One wave: both counters and the account lookup.
  const [byAddress, byIp, user] = await Promise.all([
    deps.sessions.countSignIn('addr', digestToken(input.email), windowStart, expiresAt),
    deps.sessions.countSignIn('ip', digestToken(input.ip), windowStart, expiresAt),
    deps.users.findByEmail(input.email),
  ]);
  if (byAddress > SIGN_IN_LIMITS.addr || byIp > SIGN_IN_LIMITS.ip) {
    const retryAfter = windowStart + SIGN_IN_WINDOW_SECONDS - Math.floor(now.getTime() / 1000);
    throw rateLimited(`Too many sign-in requests; try again in ${retryAfter} s`);
  }
  if (!user) return 'no_account';
  const token = await issueLink(deps, user, 'sign_in', SIGN_IN_LINK_MS);
  try {
    const sent = await deps.systemMail.send(signInMessage(user.email, `${callbackUrl}?token=${token}`));
    return sent.kind === 'sent' ? 'sent' : 'rejected';
  } catch (error) {
    onSendError(error);
    return 'failed';
  }
}

/** A new link for `user` (sign-in or invitation): the token, shown only in the e-mail; its digest stored. */
export async function issueLink(
  deps: { clock: Clock; sessions: SessionStore },
  user: { id: number; client_id: number },
  purpose: SignInLinkRecord['purpose'],
  validMs: number,
): Promise<string> {
  const now = deps.clock.now();
  const token = newToken();
  await deps.sessions.saveLink({
    token_hash: digestToken(token),
    client_id: user.client_id,
    user_id: user.id,
    purpose,
    created_at: now.toISOString(),
    valid_until: new Date(now.getTime() + validMs).toISOString(),
  });
  return token;
}

export interface StartedSession {
  sessionId: string;
  csrfToken: string;
  session: SessionRecord;
}

/**
 * GET /auth/callback: the link's token → a session, once. Undefined for a token that is malformed, unknown, used,
 * expired, or whose user is gone: the caller answers one page for all of them. Requests: GetItem link, GetItem user,
 * one TransactWriteItems (the link deleted only while it exists, the session and its index item, the user's sign-in).
 */
export async function completeSignIn(
  deps: { clock: Clock; users: UserStore; sessions: SessionStore },
  token: string | undefined,
): Promise<StartedSession | undefined> {
  if (!looksLikeToken(token)) return undefined;
  const link = await deps.sessions.getLink(digestToken(token));
  const now = deps.clock.now();
  if (!link || Date.parse(link.valid_until) <= now.getTime()) return undefined;
  // A user changed by another request between the read and the transaction: read again, at most twice.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const user = await deps.users.get(link.client_id, link.user_id);
    if (!user) return undefined;
    const sessionId = newToken();
    const csrfToken = newToken();
    const at = now.toISOString();
    const session: SessionRecord = {
      session_hash: digestToken(sessionId),
      client_id: user.client_id,
      user_id: user.id,
      email: user.email,
      role: user.role,
      csrf_hash: digestToken(csrfToken),
      created_at: at,
      last_seen_at: at,
      idle_expires_at: new Date(now.getTime() + SESSION_IDLE_MS).toISOString(),
      absolute_expires_at: new Date(now.getTime() + SESSION_ABSOLUTE_MS).toISOString(),
    };
    const outcome = await deps.sessions.startSession(link, user, session);
    if (outcome === 'started') return { sessionId, csrfToken, session };
    if (outcome === 'used') return undefined;
  }
  return undefined;
}
