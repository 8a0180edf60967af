import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { CSRF_COOKIE } from '../../public/session-rules.js';

/** Cookie names: the HttpOnly session, and the CSRF token the dashboard's script reads and echoes. */
export const SESSION_COOKIE = 'els_session';
export { CSRF_COOKIE, CSRF_HEADER } from '../../public/session-rules.js';

export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** The idle expiry is moved forward at most this often: one write per session per quarter hour, not per request. */
export const SESSION_TOUCH_MS = 15 * 60 * 1000;
export { SIGN_IN_LINK_MS } from '../../public/session-rules.js';
export { INVITATION_LINK_MS } from '../../public/session-rules.js';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** 32 random bytes, base64url (43 characters): session ids, CSRF tokens and sign-in link tokens. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** True when the value has the shape of a token (cheap check before any lookup). */
export const looksLikeToken = (value: string | undefined): value is string => value !== undefined && TOKEN.test(value);

/** Tokens are stored and looked up only by this digest. */
export const digestToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** Constant-time: `token`'s digest is `digest`. */
export function tokenMatches(token: string, digest: string): boolean {
  const left = Buffer.from(digestToken(token), 'hex');
  const right = Buffer.from(digest, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The value of cookie `name` in API Gateway's `cookies` (payload 2.0) or a raw Cookie header; the first one wins. */
export function cookieValue(
  cookies: readonly string[] | undefined,
  header: string | undefined,
  name: string,
): string | undefined {
  const pairs = [...(cookies ?? []), ...(header ? header.split(';') : [])];
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

export interface CookieScope {
  /** Only over https (the deployed API); the local runtime serves http. */
  secure: boolean;
  /** The API's base path: the session cookie goes to the API only. */
  apiPath: string;
}

/**
 * The cookies a sign-in sets (OWASP Session Management cheat sheet): the session HttpOnly, SameSite=Lax, on the API's
 * path only; the CSRF token readable by the dashboard's script (not HttpOnly) on `/`, so the /app page can echo it.
 */
export function sessionCookies(sessionId: string, csrfToken: string, scope: CookieScope): string[] {
  const maxAge = Math.floor(SESSION_ABSOLUTE_MS / 1000);
  const secure = scope.secure ? '; Secure' : '';
  return [
    `${SESSION_COOKIE}=${sessionId}; Path=${scope.apiPath}; Max-Age=${maxAge}; HttpOnly${secure}; SameSite=Lax`,
    `${CSRF_COOKIE}=${csrfToken}; Path=/; Max-Age=${maxAge}${secure}; SameSite=Lax`,
  ];
}

/** The same cookies, expired (sign-out). */
export function clearedSessionCookies(scope: CookieScope): string[] {
  const secure = scope.secure ? '; Secure' : '';
  return [
    `${SESSION_COOKIE}=; Path=${scope.apiPath}; Max-Age=0; HttpOnly${secure}; SameSite=Lax`,
    `${CSRF_COOKIE}=; Path=/; Max-Age=0${secure}; SameSite=Lax`,
  ];
}
