import type { ErrorItem } from '../../errors.js';
import type { ContactPatch, ParsedRow } from './bulk-row.js';

/** Rows of a bulk import on their way through it, and the answer they make: one result per row, in input order. */
export type BulkRowStatus = 'created' | 'updated' | 'unchanged' | 'failed';

export interface BulkRowInput {
  /** Reported back as `index`: the array index (JSON) or the 1-based data row number (CSV). */
  index: number;
  /** Prefix of the row's error keys, e.g. `contacts.3` or `rows.4`. */
  keyPrefix: string;
  parsed: ParsedRow;
}

export interface BulkRowResult {
  index: number;
  email: string | null;
  status: BulkRowStatus;
  contact_id: number | null;
  errors: ErrorItem[];
  /** Present when other rows of the request have the same e-mail: their indexes (rows apply in order). */
  duplicates?: number[];
}

export interface BulkImportResult {
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  results: BulkRowResult[];
}

/** A valid row during the import: `pending` is decided but not written; `status` is final. */
export interface RowState {
  input: BulkRowInput;
  patch: ContactPatch;
  /** Decided, not yet written: becomes `status` once the write lands. */
  pending?: Exclude<BulkRowStatus, 'failed'>;
  status?: BulkRowStatus;
  errors: ErrorItem[];
}

/** The valid rows of one e-mail, applied in request order to one contact. */
export interface ContactGroup {
  email: string;
  rows: RowState[];
  contactId?: number;
}

export function failRow(row: RowState, condition: string, key: string, error: string): void {
  row.status = 'failed';
  row.pending = undefined;
  row.errors = [{ condition, key, error }];
}

export function failRows(rows: RowState[], condition: string, field: string, error: string): void {
  for (const row of rows) failRow(row, condition, `${row.input.keyPrefix}.${field}`, error);
}

/** One result per input row, in input order; counts by status. */
export function summarizeRows(rows: readonly BulkRowInput[], groups: Iterable<ContactGroup>): BulkImportResult {
  const states = new Map<BulkRowInput, { state: RowState; group: ContactGroup }>();
  for (const group of groups) for (const state of group.rows) states.set(state.input, { state, group });
  const results: BulkRowResult[] = rows.map((input) => {
    if (!input.parsed.ok) {
      return { index: input.index, email: input.parsed.email, status: 'failed', contact_id: null, errors: input.parsed.errors };
    }
    const { state, group } = states.get(input)!;
    const status = state.status ?? 'failed';
    const errors =
      status === 'failed' && state.errors.length === 0
        ? [{ condition: 'internal', key: `${input.keyPrefix}.email`, error: 'The row was not completed; send it again' }]
        : state.errors;
    const result: BulkRowResult = {
      index: input.index,
      email: group.email,
      status,
      contact_id: status === 'failed' ? null : (group.contactId ?? null),
      errors,
    };
    if (group.rows.length > 1) result.duplicates = group.rows.filter((r) => r !== state).map((r) => r.input.index);
    return result;
  });
  const count = (status: BulkRowStatus) => results.filter((r) => r.status === status).length;
  return { created: count('created'), updated: count('updated'), unchanged: count('unchanged'), failed: count('failed'), results };
}

/** The envelope message of a bulk answer: the counts in words. */
export function summaryMessage(result: BulkImportResult): string {
  return `Imported: ${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged, ${result.failed} failed`;
}
