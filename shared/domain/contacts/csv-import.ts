import { invalidField } from '../../errors.js';
import type { Clock, Ids } from '../../platform.js';
import { parseContactRow, type ParsedRow } from './bulk-row.js';
import type { BulkImportResult, BulkRowInput } from './bulk-result.js';
import { upsertContacts } from './bulk-upsert.js';
import type { ContactStore, ContactWrites } from './contact-store.js';
import {
  HEADERLESS_LAYOUT,
  layoutFromHeader,
  recordToRow,
  type CsvColumnMapping,
  type CsvLayout,
} from './csv-columns.js';
import type { CsvImportOptions } from './csv-options.js';
import { readCsvRecords, type CsvRecord } from './csv-records.js';

const SOURCE_IMPORT = 2;

interface Deps {
  clock: Clock;
  ids: Ids;
  contacts: ContactStore;
  contactWrites: ContactWrites;
}

export interface CsvImportResult extends BulkImportResult {
  /** Header columns whose values are not imported (each once). */
  ignoredColumns: string[];
  /** How each header was understood, in file order (`meta.column_mapping`; empty without a header row). */
  columnMapping: CsvColumnMapping[];
  /** Rows with nothing in them, skipped. */
  emptyRows: number;
}

/**
 * POST /client/contacts/bulk/csv: each data row is a contact upserted like a row of the JSON bulk endpoint
 * (`source` import; `default_timezone` for rows without one). Results and error keys use the 1-based data row
 * number (`rows.<n>.<field>`). Over `limit` rows is a 413 before anything is read or written.
 */
export async function importContactsCsv(
  deps: Deps,
  clientId: number,
  csv: { text: string; options: CsvImportOptions },
  settings: { limit: number; createdBy: number },
): Promise<CsvImportResult> {
  const { options } = csv;
  const parsed = readCsvRecords(csv.text, {
    delimiter: options.delimiter,
    hasHeader: options.has_header,
    maxRows: settings.limit,
  });
  if (options.has_header && !parsed.header) {
    throw invalidField('required', 'file', 'The file is empty: expected a header row and data rows');
  }
  const layout = options.has_header ? layoutFromHeader(parsed.header!) : HEADERLESS_LAYOUT;
  if (parsed.records.length === 0) throw invalidField('required', 'file', 'The file has no data rows');

  const rows: BulkRowInput[] = parsed.records.map((record) => ({
    index: record.row,
    keyPrefix: `rows.${record.row}`,
    parsed: parseRecord(record, layout),
  }));
  const result = await upsertContacts(deps, clientId, rows, {
    overwriteBlankFields: options.overwrite_blank_fields,
    createdBy: settings.createdBy,
    defaultSource: SOURCE_IMPORT,
    defaultTimezone: options.default_timezone,
  });
  return { ...result, ignoredColumns: layout.ignored, columnMapping: layout.mapping, emptyRows: parsed.emptyRows };
}

/** One CSV record as a validated row; unreadable records and shifted rows fail on `rows.<n>`. */
function parseRecord(record: CsvRecord, layout: CsvLayout): ParsedRow {
  const keyPrefix = `rows.${record.row}`;
  if (record.error !== undefined) {
    return { ok: false, email: null, errors: [{ condition: 'format', key: keyPrefix, error: record.error }] };
  }
  const fields = record.fields ?? [];
  const mapped = recordToRow(fields, layout);
  if ('row' in mapped) return parseContactRow(mapped.row, keyPrefix);
  const at = layout.columns.findIndex((c) => 'field' in c && c.field === 'email');
  const email = at >= 0 ? fields[at]?.trim().toLowerCase() || null : null;
  return { ok: false, email, errors: [{ condition: 'format', key: keyPrefix, error: mapped.error }] };
}
