import { publicPage } from '../../shared/http/public-page.js';
import { EMAIL_DOCUMENT_CSP, emailDocument } from '../../shared/http/email-document.js';
import { sentEmailStore } from '../../shared/composition/providers/sent-email-store.js';
import { linkSecret } from '../../shared/composition/providers/link-secret.js';
import { openLink } from '../../shared/domain/links/public-links.js';
import { linkNotFoundPage } from '../../shared/domain/links/pages.js';
import { LinkTokenParams } from '../../shared/domain/links/schemas.js';

/** GET /v/{token} — the sent e-mail's HTML (its `browser_url`). */
export const handler = publicPage(
  {
    summary: 'View an e-mail in the browser',
    description:
      "The sent e-mail's HTML (its `browser_url`), answered as a document of its own: " +
      `\`Content-Security-Policy: ${EMAIL_DOCUMENT_CSP.public}\` — an opaque origin where no script runs, no form ` +
      'posts and no cookie is read; ' +
      'https and data: images load as in a mail client. Never cached, never framed, no referrer. Where the deployment ' +
      "gives links their own host (`LINKS_BASE_URL`), the link is on that host, apart from the dashboard's.",
    params: LinkTokenParams,
    pages: { 200: 'The e-mail', 404: 'The link is not valid' },
  },
  [sentEmailStore, linkSecret],
  async ({ params }, { deps }) => {
    const email = await openLink(deps, await deps.linkSecret.value(), params.token, 'v');
    return email
      ? emailDocument(200 as const, email.html_body, 'public')
      : { status: 404 as const, html: linkNotFoundPage() };
  },
);
