/**
 * Every lifecycle e-mail carries the sender's postal address and an unsubscribe link (CAN-SPAM, Gmail/Yahoo bulk
 * sender rules). System templates have both in their layout; a client template that does not show its
 * unsubscribe link gets this footer appended, so no template can send without one.
 */
export function withFooter(
  rendered: { html: string; text: string },
  footer: { companyAddress?: string; unsubscribeUrl: string },
): { html: string; text: string } {
  if (rendered.html.includes(footer.unsubscribeUrl)) return { html: rendered.html, text: rendered.text };
  const address = footer.companyAddress?.trim();
  const html =
    `${rendered.html}\n<p style="font-size:12px;color:#6B7280;">` +
    (address ? `${escapeHtml(address)}<br>` : '') +
    `<a href="${footer.unsubscribeUrl}">Unsubscribe</a></p>`;
  const text = `${rendered.text}\n\n--\n${address ? `${address}\n` : ''}Unsubscribe: ${footer.unsubscribeUrl}\n`;
  return { html, text };
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
