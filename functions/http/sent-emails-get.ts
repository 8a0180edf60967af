import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { sentEmailStore } from '../../shared/composition/providers/sent-email-store.js';
import { getSentEmail } from '../../shared/domain/sent-emails/get-sent-email.js';
import { SentEmailIdParams } from '../../shared/domain/sent-emails/schemas.js';

/** GET /client/sent-emails/{id} — the e-mail with its whole log history. */
export const handler = jsonApi({ params: SentEmailIdParams }, [sentEmailStore], async ({ params }, { deps, clientId }) =>
  ok(await getSentEmail(deps, clientId, params.id)),
);
