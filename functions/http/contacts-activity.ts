import { contactActivityStore } from '../../shared/composition/providers/contact-activity-store.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { linkSecret } from '../../shared/composition/providers/link-secret.js';
import {
  ContactActivityMeta,
  ContactActivityPage,
  ContactActivityQuery,
  listContactActivity,
} from '../../shared/domain/contacts/contact-activity.js';
import { ContactRef } from '../../shared/domain/contacts/schemas.js';
import { jsonApi } from '../../shared/http/api.js';
import { ok } from '../../shared/http/envelope.js';

/** GET /client/contacts/{id}/activity — the contact's timeline, newest first, limit + cursor. */
export const handler = jsonApi(
  {
    summary: "List a contact's activity",
    description:
      '`{id}` is the contact id or its e-mail. Its processed events, executions (status, reason), sent e-mails with ' +
      'their status logs (no bodies) and its unsubscription in force, newest first by when the service recorded them, ' +
      '`limit` (≤ 100, default 20) per page. Follow `next_cursor` (opaque, signed) until it is null. `meta.dynamodb` ' +
      'counts the requests of the page.',
    params: ContactRef,
    query: ContactActivityQuery,
    responses: { 200: { data: ContactActivityPage, meta: ContactActivityMeta } },
    errors: [404],
  },
  [contactStore, contactActivityStore, linkSecret],
  async ({ params, query }, { deps, clientId }) => {
    const cursorSecret = await deps.linkSecret.value();
    const { result, usage } = await deps.requestCounter.measure(() =>
      listContactActivity({ ...deps, cursorSecret }, clientId, params.id, query),
    );
    return ok(result, 'OK', { limit: query.limit, dynamodb: { requests: usage.requests, waves: usage.waves } });
  },
);
