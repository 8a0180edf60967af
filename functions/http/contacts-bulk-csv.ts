import * as z from '../../shared/validation/zod.js';
import { ok } from '../../shared/http/envelope.js';
import { rawBodyApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { contactWrites } from '../../shared/composition/providers/contact-writes.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { readMultipartForm } from '../../shared/http/multipart-form.js';
import { BulkImportResult, CsvImportMeta, summaryMessage } from '../../shared/domain/contacts/bulk-result.js';
import { importContactsCsv } from '../../shared/domain/contacts/csv-import.js';
import {
  BOOLEAN_WORDS,
  type CsvImportOptions,
  MAX_DELIMITER_LENGTH,
  NAMED_DELIMITERS,
  parseCsvImportOptions,
} from '../../shared/domain/contacts/csv-options.js';
import { MAX_ZONE_NAME_LENGTH } from '../../shared/validation/string-bounds.js';

/** Below Lambda's 6 MB request payload once base64-encoded. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** A yes/no form field: one of the words, or empty for the default. */
const FORM_BOOLEAN = ['', ...BOOLEAN_WORDS];

/** The form as the document shows it: the CSV file and the options (text fields, as multipart sends them). */
const CsvImportForm = z.object({
  file: z.string().check(
    z.meta({
      description: `The CSV, UTF-8 (with or without BOM), at most ${MAX_FILE_BYTES} bytes (a larger file: 413)`,
      maxLength: MAX_FILE_BYTES,
      contentMediaType: 'text/csv',
    }),
  ),
  ...({
    has_header: z.optional(z.string()).check(
      z.meta({
        description: 'Whether the first row names the columns (default true; any case)',
        examples: ['true'],
        enum: FORM_BOOLEAN,
      }),
    ),
    delimiter: z.optional(z.string().check(z.maxLength(MAX_DELIMITER_LENGTH))).check(
      z.meta({
        description: 'One character (not a quote or line break), or \\t, tab, comma, semicolon, pipe (default ",")',
        examples: [';'],
        pattern: `^(?:[^"\\r\\n]|${[...NAMED_DELIMITERS.keys()].map((name) => name.replace('\\', '\\\\')).join('|')})?$`,
      }),
    ),
    overwrite_blank_fields: z.optional(z.string()).check(
      z.meta({
        description: 'Whether empty cells clear stored values (default false; any case)',
        examples: ['false'],
        enum: FORM_BOOLEAN,
      }),
    ),
    default_timezone: z
      .optional(z.string().check(z.maxLength(MAX_ZONE_NAME_LENGTH)))
      .check(
        z.meta({ description: 'IANA name or alias (EST, PST, SGT…) for rows without one', examples: ['Europe/Paris'] }),
      ),
  } satisfies Record<keyof typeof CsvImportOptions.shape, z.ZodMiniType>),
});

/** POST /client/contacts/bulk/csv — multipart `file` (+ has_header, delimiter, overwrite_blank_fields, default_timezone). */
export const handler = rawBodyApi(
  {
    summary: 'Import contacts (CSV)',
    description:
      'A `multipart/form-data` upload. Each data row is a contact upserted with the rules of the JSON import (`source` ' +
      'import); results and error keys use the 1-based data row number (`rows.<n>.<field>`). Header names are the ' +
      "contact body's field names or the headers of Mailchimp, HubSpot, Brevo, Klaviyo and Stripe exports, ignoring " +
      'case and punctuation (`custom.<name>` for custom fields; `meta.column_mapping` tells how each header was ' +
      'understood); without a header the columns are email, ' +
      'first_name, last_name, company, phone, timezone, client_contact_id, external_id, signup_source.',
    form: CsvImportForm,
    responses: { 200: { data: BulkImportResult, meta: CsvImportMeta } },
  },
  [contactStore, contactWrites, ids, clock],
  async (_input, { deps, clientId, principal, event }) => {
    const form = await readMultipartForm(event, { fileField: 'file', maxFileBytes: MAX_FILE_BYTES });
    const options = parseCsvImportOptions(form.fields);
    const settings = { limit: deps.config.BULK_IMPORT_LIMIT, createdBy: principal.keyId ?? 0 };
    const { result, usage } = await deps.requestCounter.measure(() =>
      importContactsCsv(deps, clientId, { text: form.file.text, options }, settings),
    );
    const { ignoredColumns, columnMapping, emptyRows, ...data } = result;
    return ok(data, summaryMessage(data), {
      column_mapping: columnMapping,
      ignored_columns: ignoredColumns,
      empty_rows: emptyRows,
      dynamodb: { requests: usage.requests, waves: usage.waves },
    });
  },
);
