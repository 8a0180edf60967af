/**
 * An e-mail answered as a document of its own: the public "view in browser" link (GET /v/{token}), a sent e-mail's
 * HTML for the dashboard (GET /client/sent-emails/{id}/html) and the template editor's preview (POST
 * /client/email-templates/{id}/html). E-mail HTML is the client's content, or the client's contact's data rendered
 * in it: whatever it holds, it never runs with this service's origin. The CSP's `sandbox` gives the document an
 * opaque origin (no cookie, no storage, no script, no form, no pop-up, no top navigation), `default-src 'none'`
 * loads nothing but what is listed, and `frame-ancestors` says who may frame it: nobody for the public link, the
 * dashboard (same origin) for the authenticated ones (docs/decisions/0121-email-html-is-a-document-of-its-own.md, "E-mail HTML is a document of its own").
 */

/** Who opens the document: anyone with the link, or the signed-in dashboard (which frames it). */
export type EmailDocumentAudience = 'public' | 'dashboard';

const SANDBOX = ['sandbox', "default-src 'none'", "style-src 'unsafe-inline'", "base-uri 'none'", "form-action 'none'"];

/**
 * The CSP of each audience. The public page shows the e-mail's images as a mail client does (https and data:); the
 * dashboard's frames show data: images only, as the dashboard loads nothing from another origin: a client's remote
 * images (and any tracking pixel in them) are not fetched by someone reading the e-mail in the dashboard.
 */
export const EMAIL_DOCUMENT_CSP: Record<EmailDocumentAudience, string> = {
  public: [...SANDBOX, 'img-src https: data:', "frame-ancestors 'none'"].join('; '),
  dashboard: [...SANDBOX, 'img-src data:', "frame-ancestors 'self'"].join('; '),
};

/**
 * The headers of an e-mail document. Never stored by a cache: each is one person's mail (an erasure must reach
 * it), and the public one is opened by a bearer link; no referrer carries the link's token to the sites the e-mail
 * links to; the type is never sniffed; X-Frame-Options repeats `frame-ancestors` for browsers without CSP 2.
 */
export function emailDocumentHeaders(audience: EmailDocumentAudience): Record<string, string> {
  return {
    'content-security-policy': EMAIL_DOCUMENT_CSP[audience],
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': audience === 'public' ? 'no-store' : 'private, no-store',
    'x-frame-options': audience === 'public' ? 'DENY' : 'SAMEORIGIN',
    // Only this origin's pages may load the dashboard's copy, even as a subresource.
    ...(audience === 'dashboard' ? { 'cross-origin-resource-policy': 'same-origin' } : {}),
  };
}

/** A page result holding an e-mail as its document. */
export const emailDocument = <S extends number>(status: S, html: string, audience: EmailDocumentAudience) => ({
  status,
  html,
  headers: emailDocumentHeaders(audience),
});
