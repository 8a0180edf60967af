import * as z from '../../validation/zod.js';
import { ErrorItem, type ErrorCondition } from '../../errors.js';
import type { ContactPatch, ParsedRow } from './bulk-row.js';
import { CsvColumnMapping } from './csv-columns.js';

/** Rows of a bulk import on their way through it, and the answer they make: one result per row, in input order. */
export const BULK_ROW_STATUSES = ['created', 'updated', 'unchanged', 'failed'] as const;
export type BulkRowStatus = (typeof BULK_ROW_STATUSES)[number];

export interface BulkRowInput {
  /** Reported back as `index`: the array index (JSON) or the 1-based data row number (CSV). */
  index: number;
  /** Prefix of the row's error keys, e.g. `contacts.3` or `rows.4`. */
  keyPrefix: string;
  parsed: ParsedRow;
}

const count = z.int().check(z.gte(0));

/** The answer of one row (OpenAPI `BulkRowResult`). */
export const BulkRowResult = z
  .object({
    index: z
      .int()
      .check(z.gte(0), z.meta({ description: 'The array index (JSON) or the 1-based data row number (CSV)' })),
    email: z
      .nullable(z.string())
      .check(z.meta({ description: "The row's e-mail, lower-cased; null when it has none" })),
    status: z.enum(BULK_ROW_STATUSES),
    contact_id: z.nullable(z.int()).check(z.meta({ description: 'null when the row failed' })),
    errors: z
      .array(ErrorItem)
      .check(
        z.meta({ description: 'Why the row failed; keys are `contacts.<index>.<field>` (CSV: `rows.<n>.<field>`)' }),
      ),
    duplicates: z.optional(z.array(z.int())).check(
      z.meta({
        description: 'Present when other rows of the request have the same e-mail: their indexes (rows apply in order)',
      }),
    ),
  })
  .check(z.meta({ id: 'BulkRowResult' }));
export type BulkRowResult = z.output<typeof BulkRowResult>;

/** The answer of a bulk import, JSON or CSV (OpenAPI `BulkImportResult`): counts by status, one result per row. */
export const BulkImportResult = z
  .object({
    created: count,
    updated: count,
    unchanged: count,
    failed: count,
    results: z.array(BulkRowResult).check(z.meta({ description: 'One per input row, in input order' })),
  })
  .check(z.meta({ id: 'BulkImportResult', description: 'One bad row never fails the others.' }));
export type BulkImportResult = z.output<typeof BulkImportResult>;

/** `meta` of a bulk answer: the DynamoDB requests and waves the import took (its cost, DESIGN.md §7). */
export const BulkImportMeta = z.object({
  dynamodb: z
    .object({ requests: count, waves: count })
    .check(z.meta({ description: 'DynamoDB requests the import made, in how many sequential waves' })),
});

/** `meta` of a CSV import: also how each header was understood, the columns not imported, and the empty rows skipped. */
export const CsvImportMeta = z.extend(BulkImportMeta, {
  column_mapping: z
    .array(CsvColumnMapping)
    .check(z.meta({ description: 'Each header in file order, as understood; empty without a header row' })),
  ignored_columns: z
    .array(z.string())
    .check(z.meta({ description: 'Header columns whose values are not imported (each once)' })),
  empty_rows: count.check(z.meta({ description: 'Rows with nothing in them, skipped' })),
});

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

export function failRow(row: RowState, condition: ErrorCondition, key: string, error: string): void {
  row.status = 'failed';
  row.pending = undefined;
  row.errors = [{ condition, key, error }];
}

export function failRows(rows: RowState[], condition: ErrorCondition, field: string, error: string): void {
  for (const row of rows) failRow(row, condition, `${row.input.keyPrefix}.${field}`, error);
}

/** One result per input row, in input order; counts by status. */
export function summarizeRows(rows: readonly BulkRowInput[], groups: Iterable<ContactGroup>): BulkImportResult {
  const states = new Map<BulkRowInput, { state: RowState; group: ContactGroup }>();
  for (const group of groups) for (const state of group.rows) states.set(state.input, { state, group });
  const results: BulkRowResult[] = rows.map((input) => {
    if (!input.parsed.ok) {
      return {
        index: input.index,
        email: input.parsed.email,
        status: 'failed',
        contact_id: null,
        errors: input.parsed.errors,
      };
    }
    const { state, group } = states.get(input)!;
    const status = state.status ?? 'failed';
    const errors: ErrorItem[] =
      status === 'failed' && state.errors.length === 0
        ? [
            {
              condition: 'internal',
              key: `${input.keyPrefix}.email`,
              error: 'The row was not completed; send it again',
            },
          ]
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
  return {
    created: count('created'),
    updated: count('updated'),
    unchanged: count('unchanged'),
    failed: count('failed'),
    results,
  };
}

/** The envelope message of a bulk answer: the counts in words. */
export function summaryMessage(result: BulkImportResult): string {
  return `Imported: ${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged, ${result.failed} failed`;
}
