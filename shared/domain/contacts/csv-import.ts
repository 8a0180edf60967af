import { invalidField } from '../../errors.js';
import type { Clock, Ids } from '../../ports.js';
import { parseContactRow, type ParsedRow } from './bulk-row.js';
import { upsertContacts, type BulkImportResult, type BulkRowInput } from './bulk-upsert.js';
import type { ContactStore } from './contact-store.js';
import { HEADERLESS_LAYOUT, layoutFromHeader, recordToRow } from './csv-columns.js';
import type { CsvImportOptions } from './csv-options.js';
import { readCsvRecords } from './csv-records.js';

const SOURCE_IMPORT = 2;

interface Deps {
  clock: Clock;
  ids: Ids;
  contacts: ContactStore;
}

export interface CsvImportResult extends BulkImportResult {
  /** Header columns that are not contact fields (each once). */
  ignoredColumns: string[];
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
  const parsed = readCsvRecords(csv.text, { delimiter: options.delimiter, hasHeader: options.has_header, maxRows: settings.limit });
  if (options.has_header && !parsed.header) throw invalidField('required', 'file', 'The file is empty: expected a header row and data rows');
  const layout = options.has_header ? layoutFromHeader(parsed.header!) : HEADERLESS_LAYOUT;
  if (parsed.records.length === 0) throw invalidField('required', 'file', 'The file has no data rows');

  const rows: BulkRowInput[] = parsed.records.map((record) => {
    const keyPrefix = `rows.${record.row}`;
    let row: ParsedRow;
    if (record.error !== undefined) row = { ok: false, email: null, errors: [{ condition: 'format', key: keyPrefix, error: record.error }] };
    else {
      const mapped = recordToRow(record.fields ?? [], layout);
      row = 'error' in mapped
        ? { ok: false, email: emailOf(record.fields, layout), errors: [{ condition: 'format', key: keyPrefix, error: mapped.error }] }
        : parseContactRow(mapped.row, keyPrefix);
    }
    return { index: record.row, keyPrefix, parsed: row };
  });
  const result = await upsertContacts(deps, clientId, rows, {
    overwriteBlankFields: options.overwrite_blank_fields,
    createdBy: settings.createdBy,
    defaultSource: SOURCE_IMPORT,
    defaultTimezone: options.default_timezone,
  });
  return { ...result, ignoredColumns: layout.ignored, emptyRows: parsed.emptyRows };
}

function emailOf(fields: readonly string[] | undefined, layout: { columns: readonly object[] }): string | null {
  const at = layout.columns.findIndex((c) => 'field' in c && (c as { field: string }).field === 'email');
  const value = at >= 0 ? fields?.[at]?.trim().toLowerCase() : undefined;
  return value ? value : null;
}
