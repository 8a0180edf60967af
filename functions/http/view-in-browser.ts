import { publicPage } from '../../shared/http/public-page.js';
import { sentEmailStore } from '../../shared/composition/providers/sent-email-store.js';
import { linkSecretOf } from '../../shared/composition/link-secret.js';
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
  [sentEmailStore],
  async ({ params }, { deps }) => {
    const email = await openLink(deps, linkSecretOf(deps.config), params.token, 'v');
    return email ? { status: 200 as const, html: email.html_body } : { status: 404 as const, html: linkNotFoundPage() };
  },
);
