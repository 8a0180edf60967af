import { ok } from '../../shared/http/envelope.js';
import { rawBodyApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { readMultipartForm } from '../../shared/http/multipart-form.js';
import { summaryMessage } from '../../shared/domain/contacts/bulk-result.js';
import { importContactsCsv } from '../../shared/domain/contacts/csv-import.js';
import { parseCsvImportOptions } from '../../shared/domain/contacts/csv-options.js';

/** Below Lambda's 6 MB request payload once base64-encoded. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** POST /client/contacts/bulk/csv — multipart `file` (+ has_header, delimiter, overwrite_blank_fields, default_timezone). */
export const handler = rawBodyApi(
  {},
  [contactStore, ids, clock],
  async (_input, { deps, clientId, principal, event }) => {
    const form = await readMultipartForm(event, { fileField: 'file', maxFileBytes: MAX_FILE_BYTES });
    const options = parseCsvImportOptions(form.fields);
    const settings = { limit: deps.config.BULK_IMPORT_LIMIT, createdBy: principal.keyId ?? 0 };
    const { result, usage } = await deps.requestCounter.measure(() =>
      importContactsCsv(deps, clientId, { text: form.file.text, options }, settings),
    );
    const { ignoredColumns, emptyRows, ...data } = result;
    return ok(data, summaryMessage(data), {
      ignored_columns: ignoredColumns,
      empty_rows: emptyRows,
      dynamodb: { requests: usage.requests, waves: usage.waves },
    });
  },
);
