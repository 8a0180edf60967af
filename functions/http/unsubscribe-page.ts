import { publicPage } from '../../shared/http/public-page.js';
import { sentEmailStore } from '../../shared/composition/providers/sent-email-store.js';
import { linkSecretOf } from '../../shared/composition/link-secret.js';
import { openLink } from '../../shared/domain/links/public-links.js';
import { linkNotFoundPage, unsubscribeQuestionPage } from '../../shared/domain/links/pages.js';
import { LinkTokenParams } from '../../shared/domain/links/schemas.js';

/** GET /u/{token} — a page offering to unsubscribe; a GET never changes anything. */
export const handler = publicPage({ params: LinkTokenParams }, [sentEmailStore], async ({ params }, { deps }) => {
  const email = await openLink(deps, linkSecretOf(deps.config), params.token, 'u');
  return email ? { status: 200, html: unsubscribeQuestionPage(email.to_email) } : { status: 404, html: linkNotFoundPage() };
});
