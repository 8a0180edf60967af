import { tooLarge } from '../../errors.js';
import type { Clock, Ids } from '../../platform.js';
import type { BulkContactsBody } from './bulk-schemas.js';
import { parseContactRow } from './bulk-row.js';
import type { BulkImportResult } from './bulk-result.js';
import { upsertContacts } from './bulk-upsert.js';
import type { ContactStore, ContactWrites } from './contact-store.js';

const SOURCE_API = 1;

interface Deps {
  clock: Clock;
  ids: Ids;
  contacts: ContactStore;
  contactWrites: ContactWrites;
}

/**
 * POST /client/contacts/bulk: upserts the contacts matched on (client, e-mail). More than `limit` rows is a 413
 * before anything is read or written; each row is then validated and applied on its own (keys `contacts.<i>.…`).
 */
export async function importContacts(
  deps: Deps,
  clientId: number,
  body: BulkContactsBody,
  options: { limit: number; createdBy: number },
): Promise<BulkImportResult> {
  if (body.contacts.length > options.limit) {
    throw tooLarge(
      'contacts',
      `At most ${options.limit} contacts per request (got ${body.contacts.length}); split the import`,
    );
  }
  const rows = body.contacts.map((raw, index) => ({
    index,
    keyPrefix: `contacts.${index}`,
    parsed: parseContactRow(raw, `contacts.${index}`),
  }));
  return upsertContacts(deps, clientId, rows, {
    overwriteBlankFields: body.overwrite_blank_fields,
    createdBy: options.createdBy,
    defaultSource: SOURCE_API,
  });
}
