import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { contactWrites } from '../../shared/composition/providers/contact-writes.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { importContacts } from '../../shared/domain/contacts/bulk-import.js';
import { BulkImportMeta, BulkImportResult, summaryMessage } from '../../shared/domain/contacts/bulk-result.js';
import { BulkContactsBody } from '../../shared/domain/contacts/bulk-schemas.js';

/** POST /client/contacts/bulk — upsert up to BULK_IMPORT_LIMIT contacts; `meta.dynamodb` counts the requests. */
export const handler = jsonApi(
  {
    summary: 'Import contacts (JSON)',
    description:
      'Inserts or updates contacts, matched on e-mail; each row has the rules of the contact body and is answered on ' +
      'its own: one bad row never fails the others. With `overwrite_blank_fields` false an empty or absent value ' +
      'keeps the stored one. More rows than the bulk import limit (default 1000) is a 413.',
    body: BulkContactsBody,
    responses: { 200: { data: BulkImportResult, meta: BulkImportMeta } },
  },
  [contactStore, contactWrites, ids, clock],
  async ({ body }, { deps, clientId, principal }) => {
    const { result, usage } = await deps.requestCounter.measure(() =>
      importContacts(deps, clientId, body, { limit: deps.config.BULK_IMPORT_LIMIT, createdBy: principal.keyId ?? 0 }),
    );
    return ok(result, summaryMessage(result), { dynamodb: { requests: usage.requests, waves: usage.waves } });
  },
);
