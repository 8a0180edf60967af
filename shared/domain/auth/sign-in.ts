import type { Clock, Queue } from '../../platform.js';
import { rateLimited } from '../../errors.js';
import { ipLimitKey } from '../rate-limits/ip-limit.js';
import type { ClientStore } from '../clients/client-store.js';
import type { SystemMail } from '../system-mail/system-mail.js';
import type { UserStore } from '../users/user-store.js';
import type { SessionRecord, SessionStore, SignInLinkRecord } from './session-store.js';
import {
  digestToken,
  looksLikeToken,
  newToken,
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
  SIGN_IN_LINK_MS,
  tokenMatches,
} from './session-tokens.js';
import { signInMessage } from './sign-in-mail.js';

/**
 * Sign-in requests allowed per 15-minute window: per (address, IP) — past it the answer stays 202 and no mail goes
 * out, so nobody can use up another person's requests from an address of their own — and per client IP (429).
 */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const SIGN_IN_LIMITS = { addressFromIp: 5, ip: 30 } as const;

/** What a sign-in request did, for the log only: the answer is the same 202 for both. */
export type SignInRequestOutcome = 'queued' | 'address_limit';

/**
 * POST /auth/sign-in: counts the request against its (address, IP) and its IP — 429 past the IP's limit; past the
 * address's, nothing more — then queues the e-mail. No account is looked up here: the request does the same work
 * (two counter writes, one SQS send) whether or not the address has an account, and the SES call happens after the
 * answer (send-system-mail). `bindingNonce` is the asking browser's sign-in cookie; only its digest travels.
 */
export async function requestSignIn(
  deps: { clock: Clock; sessions: SessionStore; queue: Queue },
  input: { email: string; ip: string; bindingNonce: string },
): Promise<SignInRequestOutcome> {
  const now = deps.clock.now();
  const windowStart = Math.floor(now.getTime() / 1000 / SIGN_IN_WINDOW_SECONDS) * SIGN_IN_WINDOW_SECONDS;
  const expiresAt = windowStart + 2 * SIGN_IN_WINDOW_SECONDS;
  // An IPv6 address counts by its /64 (one subscriber's network), as the per-IP limit of anonymous traffic does.
  const ip = ipLimitKey(input.ip) ?? digestToken(input.ip);
  const [byAddressFromIp, byIp] = await Promise.all([
    deps.sessions.countSignIn('addr_ip', digestToken(`${input.email}\n${ip}`), windowStart, expiresAt),
    deps.sessions.countSignIn('ip', ip, windowStart, expiresAt),
  ]);
  if (byIp > SIGN_IN_LIMITS.ip) {
    const retryAfter = windowStart + SIGN_IN_WINDOW_SECONDS - Math.floor(now.getTime() / 1000);
    throw rateLimited(`Too many sign-in requests; try again in ${retryAfter} s`);
  }
  if (byAddressFromIp > SIGN_IN_LIMITS.addressFromIp) return 'address_limit';
  await deps.queue.send('system-mail', {
    kind: 'sign_in',
    email: input.email,
    binding_hash: digestToken(input.bindingNonce),
  });
  return 'queued';
}

/** What sending a queued sign-in link did, for the log only. */
export type SignInOutcome = 'sent' | 'no_account' | 'rejected';

/**
 * send-system-mail, a sign-in message: only for an account, a one-time link (15 min) bound to the asking browser,
 * e-mailed. Requests: GetItem lock + GetItem user, PutItem link, SES SendEmail. A transient SES failure is thrown (the
 * message comes back; the link written before it expires unused); a permanent refusal is answered.
 */
export async function sendSignInLink(
  deps: { clock: Clock; users: UserStore; sessions: SessionStore; systemMail: SystemMail },
  message: { email: string; binding_hash: string },
  callbackUrl: string,
): Promise<SignInOutcome> {
  const user = await deps.users.findByEmail(message.email);
  if (!user) return 'no_account';
  const token = await issueLink(deps, user, 'sign_in', SIGN_IN_LINK_MS, message.binding_hash);
  const sent = await deps.systemMail.send(signInMessage(user.email, `${callbackUrl}?token=${token}`));
  return sent.kind === 'sent' ? 'sent' : 'rejected';
}

/** A new link for `user` (sign-in or invitation): the token, shown only in the e-mail; its digest stored. */
export async function issueLink(
  deps: { clock: Clock; sessions: SessionStore },
  user: { id: number; client_id: number; email: string },
  purpose: SignInLinkRecord['purpose'],
  validMs: number,
  bindingHash?: string,
): Promise<string> {
  const now = deps.clock.now();
  const token = newToken();
  await deps.sessions.saveLink({
    token_hash: digestToken(token),
    client_id: user.client_id,
    user_id: user.id,
    purpose,
    email: user.email,
    ...(bindingHash ? { binding_hash: bindingHash } : {}),
    created_at: now.toISOString(),
    valid_until: new Date(now.getTime() + validMs).toISOString(),
  });
  return token;
}

/** The link was asked for by this browser: its sign-in cookie's digest is the one stored with the link. */
const boundTo = (link: SignInLinkRecord, bindingNonce: string | undefined): boolean =>
  link.binding_hash !== undefined && looksLikeToken(bindingNonce) && tokenMatches(bindingNonce, link.binding_hash);

async function usableLink(
  deps: { clock: Clock; sessions: SessionStore },
  token: string | undefined,
): Promise<SignInLinkRecord | undefined> {
  if (!looksLikeToken(token)) return undefined;
  const link = await deps.sessions.getLink(digestToken(token));
  return link && Date.parse(link.valid_until) > deps.clock.now().getTime() ? link : undefined;
}

/** What the page of a link shows before anything happens. */
export interface SignInLinkView {
  email: string;
  clientName: string | undefined;
  bound: boolean;
  purpose: SignInLinkRecord['purpose'];
}

/**
 * GET /auth/callback: what the link would sign in to, read only (a GET or HEAD consumes nothing). Undefined for a
 * link that cannot be used. Requests: GetItem link; for a link this browser did not ask for, GetItem client (its
 * name) and, for a link stored without its address, GetItem user.
 */
export async function readSignInLink(
  deps: { clock: Clock; sessions: SessionStore; users: UserStore; clients: ClientStore },
  token: string | undefined,
  bindingNonce: string | undefined,
): Promise<SignInLinkView | undefined> {
  const link = await usableLink(deps, token);
  if (!link) return undefined;
  const bound = boundTo(link, bindingNonce);
  const [email, client] = await Promise.all([
    link.email ?? deps.users.get(link.client_id, link.user_id).then((u) => u?.email),
    bound ? undefined : deps.clients.get(link.client_id),
  ]);
  if (email === undefined) return undefined;
  return { email, clientName: client?.name, bound, purpose: link.purpose };
}

export interface StartedSession {
  sessionId: string;
  csrfToken: string;
  session: SessionRecord;
}

/**
 * POST /auth/callback: the link's token → a session, once — when this browser asked for the link, or when the person
 * confirmed the account the page named (`confirmed`); otherwise `unconfirmed` and the link stays as it was. Undefined
 * for a token that is malformed, unknown, used, expired, or whose user is gone: the caller answers one page for all
 * of them. Requests: GetItem link, GetItem user, one TransactWriteItems (the link deleted only while it exists, the
 * session and its index item, the user's sign-in).
 */
export async function completeSignIn(
  deps: { clock: Clock; users: UserStore; sessions: SessionStore },
  token: string | undefined,
  browser: { bindingNonce: string | undefined; confirmed: boolean },
): Promise<StartedSession | 'unconfirmed' | undefined> {
  const link = await usableLink(deps, token);
  if (!link) return undefined;
  if (!browser.confirmed && !boundTo(link, browser.bindingNonce)) return 'unconfirmed';
  const now = deps.clock.now();
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
