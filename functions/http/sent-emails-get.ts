import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { sentEmailStore } from '../../shared/composition/providers/sent-email-store.js';
import { getSentEmail } from '../../shared/domain/sent-emails/get-sent-email.js';
import { SentEmailIdParams } from '../../shared/domain/sent-emails/schemas.js';
import { SentEmailView } from '../../shared/domain/sent-emails/sent-email-view.js';

/** GET /client/sent-emails/{id} — the e-mail with its whole log history. */
export const handler = jsonApi(
  {
    summary: 'Get a sent e-mail',
    description: 'The e-mail (by its UUID) with its whole log history, oldest first.',
    params: SentEmailIdParams,
    responses: { 200: SentEmailView },
    errors: [404],
  },
  [sentEmailStore],
  async ({ params }, { deps, clientId }) => ok(await getSentEmail(deps, clientId, params.id)),
);
