import type { SystemMessage } from '../system-mail/system-mail.js';
import { escapeHtml } from '../html/escape-html.js';

function message(to: string, subject: string, intro: string, link: string, validity: string): SystemMessage {
  const text = `${intro}\n\nSign in: ${link}\n\nThe link works once, for ${validity}. If you did not ask for it, ignore this e-mail.\n`;
  const html =
    `<!doctype html><html><body style="font-family:sans-serif">` +
    `<p>${escapeHtml(intro)}</p>` +
    `<p><a href="${escapeHtml(link)}">Sign in to the dashboard</a></p>` +
    `<p style="color:#555">The link works once, for ${validity}. If you did not ask for it, ignore this e-mail.</p>` +
    `</body></html>`;
  return { to, subject, text, html };
}

/** The e-mail with a one-time sign-in link (15 minutes). */
export const signInMessage = (to: string, link: string): SystemMessage =>
  message(
    to,
    'Your sign-in link',
    'Here is the link you asked for to sign in to the Email Lifecycle dashboard.',
    link,
    '15 minutes',
  );

/** The invitation: who invited whom to which client, with a one-time sign-in link (72 hours). */
export const invitationMessage = (to: string, link: string, clientName: string, inviterName: string): SystemMessage =>
  message(
    to,
    `You are invited to ${clientName} on Email Lifecycle`,
    `${inviterName} invited you to the Email Lifecycle dashboard of ${clientName}.`,
    link,
    '72 hours (later, ask for a new link on the sign-in page)',
  );

/**
 * An invitation to an address that already has an account with another client: it says who invited it, and nothing
 * else (no link: an address belongs to one account, and nothing here tells the inviter).
 */
export function invitationToAccountHolderMessage(to: string, clientName: string, inviterName: string): SystemMessage {
  const intro = `${inviterName} invited you to the Email Lifecycle dashboard of ${clientName}.`;
  const rest =
    'Your address already has an account of the dashboard, and an address belongs to one account: to join, ask them ' +
    'to invite another address of yours. If you do not know them, ignore this e-mail.';
  return {
    to,
    subject: `You are invited to ${clientName} on Email Lifecycle`,
    text: `${intro}\n\n${rest}\n`,
    html: `<!doctype html><html><body style="font-family:sans-serif"><p>${escapeHtml(intro)}</p><p>${escapeHtml(rest)}</p></body></html>`,
  };
}
