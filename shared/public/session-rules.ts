/** The cookie the dashboard's script reads and echoes in CSRF_HEADER on every change (double submit). */
export const CSRF_COOKIE = 'els_csrf';
/** The header a session's POST, PATCH or DELETE echoes the CSRF cookie in (header names are case-insensitive). */
export const CSRF_HEADER = 'x-csrf-token';
/**
 * The field an authenticated page's form carries the session's CSRF token in (a form cannot send the header): the
 * same double-submitted token, checked the same way.
 */
export const CSRF_FORM_FIELD = 'csrf_token';
/** How long an invitation's link works: the invitee may not read it within a quarter hour. */
export const INVITATION_LINK_MS = 72 * 60 * 60 * 1000;
/** How long a sign-in link works. */
export const SIGN_IN_LINK_MS = 15 * 60 * 1000;
