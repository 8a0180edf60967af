import { clientPage } from '../../shared/http/api.js';
import { EMAIL_DOCUMENT_CSP, emailDocument } from '../../shared/http/email-document.js';
import { sentEmailStore } from '../../shared/composition/providers/sent-email-store.js';
import { getSentEmailHtml } from '../../shared/domain/sent-emails/get-sent-email.js';
import { SentEmailIdParams } from '../../shared/domain/sent-emails/schemas.js';

/** GET /client/sent-emails/{id}/html — the e-mail as sent, a sandboxed document the dashboard frames. */
export const handler = clientPage(
  {
    summary: "Get a sent e-mail's HTML",
    description:
      "The e-mail's HTML as it was sent (empty once the contact was erased), answered as a document of its own: " +
      `\`Content-Security-Policy: ${EMAIL_DOCUMENT_CSP.dashboard}\` — an opaque origin where no script runs and ` +
      'nothing is fetched from another origin, framed only by the dashboard. Never cached.',
    params: SentEmailIdParams,
    pages: { 200: 'The e-mail as sent, in its sandbox' },
    errors: [404],
  },
  [sentEmailStore],
  async ({ params }, { deps, clientId }) =>
    emailDocument(200 as const, await getSentEmailHtml(deps, clientId, params.id), 'dashboard'),
);
