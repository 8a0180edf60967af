import { escapeHtml } from '../html/escape-html.js';

/**
 * The sign-in pages: no script, nothing from another origin, a form that may post only to this origin, never framed
 * (so no page of another site can overlay the button and have it clicked).
 */
export const SIGN_IN_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** The form field that says the person read which account the link signs in to and wants it anyway. */
export const CONFIRM_FIELD = 'confirm';
export const CONFIRM_VALUE = 'yes';

const page = (title: string, body: string): string => `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1F2937;line-height:1.5}
h1{font-size:1.5rem}
.account{background:#F3F4F6;border-radius:.5rem;padding:.75rem 1rem;overflow-wrap:anywhere}
.warn{border-left:4px solid #B45309;padding-left:.75rem}
button{font:inherit;font-weight:600;color:#fff;background:#1D4ED8;border:0;border-radius:.5rem;padding:.75rem 1.5rem;min-height:44px;width:100%;cursor:pointer}
button:focus-visible{outline:3px solid #F59E0B;outline-offset:2px}
a{color:#1D4ED8}
</style>
</head><body><main>${body}</main></body></html>`;

/** What the confirmation page shows: the account the link signs in to, and whether this browser asked for it. */
export interface SignInPageView {
  /** Where the form posts (POST /auth/callback). */
  action: string;
  token: string;
  email: string;
  clientName: string | undefined;
  /** This browser asked for the link (its sign-in cookie matches): one button, no question. */
  bound: boolean;
  purpose: 'sign_in' | 'invitation';
}

/**
 * The page a sign-in link opens (GET): a button that posts the token. Opening it signs nobody in, so a mail
 * scanner's GET or HEAD leaves the link working. A link this browser did not ask for (another device, an
 * invitation, or a link someone else made this browser open) names the account and asks before signing in.
 */
export function signInConfirmPage(view: SignInPageView): string {
  const account = view.clientName ? `${view.email} in ${view.clientName}` : view.email;
  const fields =
    `<input type="hidden" name="token" value="${escapeHtml(view.token)}">` +
    (view.bound ? '' : `<input type="hidden" name="${CONFIRM_FIELD}" value="${CONFIRM_VALUE}">`);
  const form = (label: string) =>
    `<form method="post" action="${escapeHtml(view.action)}">${fields}<button type="submit">${escapeHtml(label)}</button></form>`;
  if (view.bound) {
    return page(
      'Sign in',
      `<h1>Sign in to the Email Lifecycle dashboard</h1><p class="account">Account: <strong>${escapeHtml(account)}</strong></p>${form('Sign in')}` +
        '<p>The link works once, for 15 minutes.</p>',
    );
  }
  const why =
    view.purpose === 'invitation'
      ? '<p>You were invited to the Email Lifecycle dashboard. Signing in opens this account:</p>'
      : '<p class="warn">This link was not asked for in this browser. Sign in only if you asked for it yourself, for example on another device: a link someone else sent you would sign you in to <strong>their</strong> account.</p><p>The link signs in to:</p>';
  return page(
    'Confirm sign-in',
    `<h1>Sign in as ${escapeHtml(view.email)}?</h1>${why}<p class="account">Account: <strong>${escapeHtml(account)}</strong></p>` +
      form(`Sign in as ${view.email}`) +
      '<p>If you did not ask for it, close this page: nothing happens.</p>',
  );
}

/** The one page a sign-in link that cannot be used answers with. */
export const signInLinkInvalidPage = (signInUrl: string): string =>
  page(
    'Sign-in link not valid',
    '<h1>This sign-in link cannot be used</h1>' +
      '<p>It was already used, it has expired (a link works once, for 15 minutes), or it was copied incompletely.</p>' +
      `<p><a href="${escapeHtml(signInUrl)}">Ask for a new link</a></p>`,
  );

/** A sign-in posted from another site's page: refused, the link left as it was. */
export const signInCrossSitePage = (signInUrl: string): string =>
  page(
    'Sign-in refused',
    '<h1>Sign-in refused</h1><p>The request came from another site. Open the link from your e-mail and press the button on its page.</p>' +
      `<p><a href="${escapeHtml(signInUrl)}">Go to the sign-in page</a></p>`,
  );
