import { publicPage } from '../../shared/http/public-page.js';
import { sentEmailStore } from '../../shared/composition/providers/sent-email-store.js';
import { linkSecret } from '../../shared/composition/providers/link-secret.js';
import { openLink } from '../../shared/domain/links/public-links.js';
import { linkNotFoundPage, unsubscribeQuestionPage } from '../../shared/domain/links/pages.js';
import { LinkTokenParams } from '../../shared/domain/links/schemas.js';

/** GET /u/{token} — a page offering to unsubscribe; a GET never changes anything. */
export const handler = publicPage(
  {
    summary: 'Unsubscribe page',
    description: 'The unsubscribe link of an e-mail: a page with a button that posts to the same URL. A GET changes nothing.',
    params: LinkTokenParams,
    pages: { 200: 'A page offering to unsubscribe', 404: 'The link is not valid' },
  },
  [sentEmailStore, linkSecret],
  async ({ params }, { deps }) => {
    const email = await openLink(deps, await deps.linkSecret.value(), params.token, 'u');
    return email ? { status: 200 as const, html: unsubscribeQuestionPage(email.to_email) } : { status: 404 as const, html: linkNotFoundPage() };
  },
);
