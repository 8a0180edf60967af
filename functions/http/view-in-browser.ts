import { publicPage } from '../../shared/http/public-page.js';
import { sentEmailStore } from '../../shared/composition/providers/sent-email-store.js';
import { linkSecret } from '../../shared/composition/providers/link-secret.js';
import { openLink } from '../../shared/domain/links/public-links.js';
import { linkNotFoundPage } from '../../shared/domain/links/pages.js';
import { LinkTokenParams } from '../../shared/domain/links/schemas.js';

/** GET /v/{token} — the sent e-mail's HTML (its `browser_url`). */
export const handler = publicPage(
  {
    summary: 'View an e-mail in the browser',
    description: "The sent e-mail's HTML: its `browser_url`.",
    params: LinkTokenParams,
    pages: { 200: 'The e-mail', 404: 'The link is not valid' },
  },
  [sentEmailStore, linkSecret],
  async ({ params }, { deps }) => {
    const email = await openLink(deps, await deps.linkSecret.value(), params.token, 'v');
    return email ? { status: 200 as const, html: email.html_body } : { status: 404 as const, html: linkNotFoundPage() };
  },
);
