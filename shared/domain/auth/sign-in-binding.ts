import { SIGN_IN_LINK_MS, type CookieScope } from './session-tokens.js';

/**
 * The cookie that binds a sign-in link to the browser that asked for it (login CSRF): POST /auth/sign-in sets a
 * random nonce; the link's record keeps its digest; POST /auth/callback signs in without a question only when the
 * browser sends the nonce back. HttpOnly (no script needs it), SameSite=Strict (a cross-site request never carries
 * it; the callback page's own form POST is same-site), on the callback's path only, and no longer than a link lives.
 */
export const SIGN_IN_BINDING_COOKIE = 'els_signin';

export function signInBindingCookie(nonce: string, scope: CookieScope): string {
  const secure = scope.secure ? '; Secure' : '';
  return `${SIGN_IN_BINDING_COOKIE}=${nonce}; Path=${scope.apiPath}/auth/callback; Max-Age=${SIGN_IN_LINK_MS / 1000}; HttpOnly${secure}; SameSite=Strict`;
}

/** The same cookie, expired: a link used ends the binding. */
export function clearedSignInBindingCookie(scope: CookieScope): string {
  const secure = scope.secure ? '; Secure' : '';
  return `${SIGN_IN_BINDING_COOKIE}=; Path=${scope.apiPath}/auth/callback; Max-Age=0; HttpOnly${secure}; SameSite=Strict`;
}
