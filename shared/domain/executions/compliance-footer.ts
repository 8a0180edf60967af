import type { WorkflowCategory } from '../workflows/catalog.js';
import { escapeHtml } from '../html/escape-html.js';

/**
 * Every lifecycle e-mail carries the sender's postal address and an unsubscribe link (CAN-SPAM, Gmail/Yahoo bulk
 * sender rules). System templates have both in their layout; a client template that does not show its
 * unsubscribe link gets this footer appended, so no template can send without one. Transactional mail
 * names the same link for what it opens there: the preference page, not an unsubscription.
 */
export function withFooter(
  rendered: { html: string; text: string },
  footer: { companyAddress?: string; unsubscribeUrl: string; category?: WorkflowCategory },
): { html: string; text: string } {
  const label = footer.category === 'transactional' ? 'Email preferences' : 'Unsubscribe';
  if (rendered.html.includes(footer.unsubscribeUrl)) return { html: rendered.html, text: rendered.text };
  const address = footer.companyAddress?.trim();
  const html =
    `${rendered.html}\n<p style="font-size:12px;color:#6B7280;">` +
    (address ? `${escapeHtml(address)}<br>` : '') +
    `<a href="${footer.unsubscribeUrl}">${label}</a></p>`;
  const text = `${rendered.text}\n\n--\n${address ? `${address}\n` : ''}${label}: ${footer.unsubscribeUrl}\n`;
  return { html, text };
}
