import * as z from '../../shared/validation/zod.js';
import { publicPage } from '../../shared/http/public-page.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { sentEmailStore } from '../../shared/composition/providers/sent-email-store.js';
import { unsubscribeStore } from '../../shared/composition/providers/unsubscribe-store.js';
import { linkSecret } from '../../shared/composition/providers/link-secret.js';
import { unsubscribeByLink } from '../../shared/domain/links/public-links.js';
import { linkNotFoundPage, unsubscribedPage } from '../../shared/domain/links/pages.js';
import { LinkTokenParams } from '../../shared/domain/links/schemas.js';

/**
 * POST /u/{token} — RFC 8058 one-click (`List-Unsubscribe=One-Click`, sent by mail clients) or the page's button:
 * unsubscribed at once, 200, no redirect, no cookie.
 */
export const handler = publicPage(
  {
    summary: 'Unsubscribe (one-click)',
    description:
      "RFC 8058 one-click unsubscribe, sent by mail clients from the e-mail's `List-Unsubscribe` header, or the " +
      "unsubscribe page's button. The contact is unsubscribed at once; no redirect, no cookie. The link of an e-mail " +
      "sent under a topic (issue 24 §3) leaves that topic only: the contact's other mail goes on.",
    params: LinkTokenParams,
    form: z.object({ 'List-Unsubscribe': z.optional(z.literal('One-Click')) }),
    pages: { 200: 'The contact is unsubscribed', 404: 'The link is not valid' },
  },
  [sentEmailStore, contactStore, unsubscribeStore, clock, linkSecret],
  async ({ params }, { deps }) => {
    const email = await unsubscribeByLink(deps, await deps.linkSecret.value(), params.token);
    return email ? { status: 200 as const, html: unsubscribedPage(email.to_email) } : { status: 404 as const, html: linkNotFoundPage() };
  },
);
