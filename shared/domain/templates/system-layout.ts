/**
 * The branded layout every system template is built on. It is plain eta interpolation (DESIGN.md §6), expanded
 * into each template at build time, so a client's copy is self-contained and editable as a whole.
 *
 * The primary colour fills the header and buttons, the secondary colour accents the card's bottom edge.
 * Variables: client.brand_name, client.brand_logo_url, client.brand_primary_color, client.brand_secondary_color,
 * client.company_name, client.company_address, client.email_signature, links.browser_url, links.unsubscribe_url,
 * links.app_url, contact.first_name. render-preview (and the sender) fill them with fallbacks; the `??` defaults
 * below keep a template readable even when rendered without them.
 */
import type { WorkflowCategory } from '../workflows/catalog.js';
import { DEFAULT_PRIMARY_COLOR, DEFAULT_SECONDARY_COLOR, TRANSPARENT_PIXEL } from './template-vars.js';

export const v = {
  brand: '<%= it.client.brand_name ?? "our team" %>',
  logo: `<%= it.client.brand_logo_url ?? "${TRANSPARENT_PIXEL}" %>`,
  primary: `<%= it.client.brand_primary_color ?? "${DEFAULT_PRIMARY_COLOR}" %>`,
  secondary: `<%= it.client.brand_secondary_color ?? "${DEFAULT_SECONDARY_COLOR}" %>`,
  company: '<%= it.client.company_name ?? "" %>',
  address: '<%= it.client.company_address ?? "" %>',
  signature: '<%= it.client.email_signature ?? "The team" %>',
  firstName: '<%= it.contact.first_name ?? "there" %>',
  appUrl: '<%= it.links.app_url ?? "#" %>',
  browserUrl: '<%= it.links.browser_url ?? "#" %>',
  unsubscribeUrl: '<%= it.links.unsubscribe_url ?? "#" %>',
} as const;

const FONT = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";

/** A paragraph of the HTML body. */
export const p = (html: string): string => `<p style="margin:0 0 16px;">${html}</p>`;

/** A bulleted list in the HTML body. */
export const list = (items: string[]): string =>
  `<ul style="margin:0 0 16px;padding-left:20px;">${items.map((i) => `<li style="margin:0 0 8px;">${i}</li>`).join('')}</ul>`;

/** The call-to-action button, in the brand's primary colour, pointing at the client's app. */
export const button = (label: string, href: string = v.appUrl): string =>
  `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px;"><tr>` +
  `<td style="border-radius:6px;background-color:${v.primary};">` +
  `<a href="${href}" style="display:inline-block;padding:12px 24px;${FONT}font-size:16px;font-weight:bold;` +
  `color:#ffffff;text-decoration:none;border-radius:6px;">${label}</a></td></tr></table>`;

/**
 * The footer's link line: marketing mail offers to unsubscribe; transactional mail, which an unsubscribed
 * contact still receives, links the same address as the preference page.
 */
const footerLine = (category: WorkflowCategory): string =>
  category === 'transactional'
    ? `This is a message about your account, sent whatever your email preferences.<br>
<a href="${v.unsubscribeUrl}" style="color:#6B7280;text-decoration:underline;">Manage your email preferences</a>.`
    : `You are receiving this email because you have an account with ${v.brand}.<br>
<a href="${v.unsubscribeUrl}" style="color:#6B7280;text-decoration:underline;">Unsubscribe</a> from these emails.`;

/** Wraps the content of one message in the branded HTML layout. */
export function htmlLayout(parts: {
  subject: string;
  previewText: string;
  content: string;
  category?: WorkflowCategory;
}): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="x-apple-disable-message-reformatting">
<title>${parts.subject}</title>
</head>
<body style="margin:0;padding:0;background-color:#F3F4F6;">
<div style="display:none;max-height:0;overflow:hidden;opacity:0;mso-hide:all;">${parts.previewText}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#F3F4F6;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;">
<tr><td style="padding:0 4px 12px;text-align:right;${FONT}font-size:12px;color:#6B7280;">
<a href="${v.browserUrl}" style="color:#6B7280;text-decoration:underline;">View this email in your browser</a>
</td></tr>
<tr><td style="background-color:${v.primary};padding:20px 32px;border-radius:8px 8px 0 0;">
<img src="${v.logo}" alt="" height="32" style="display:inline-block;height:32px;border:0;vertical-align:middle;">
<span style="${FONT}font-size:20px;font-weight:bold;color:#FFFFFF;vertical-align:middle;">${v.brand}</span>
</td></tr>
<tr><td style="background-color:#FFFFFF;padding:32px;border-radius:0 0 8px 8px;border-bottom:4px solid ${v.secondary};${FONT}font-size:16px;line-height:1.6;color:#1F2937;">
${parts.content}
<p style="margin:24px 0 0;white-space:pre-line;">${v.signature}</p>
</td></tr>
<tr><td style="padding:24px 32px;text-align:center;${FONT}font-size:12px;line-height:1.5;color:#6B7280;">
<p style="margin:0 0 8px;white-space:pre-line;">${v.company}<br>${v.address}</p>
<p style="margin:0;">${footerLine(parts.category ?? 'marketing')}</p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

/** Wraps the plain-text content of one message in the text layout (signature, address, links). */
export function textLayout(content: string, category: WorkflowCategory = 'marketing'): string {
  return `${content}

${v.signature}

--
${v.company}
${v.address}

View this email in your browser: ${v.browserUrl}
${category === 'transactional' ? 'Email preferences' : 'Unsubscribe'}: ${v.unsubscribeUrl}
`;
}
