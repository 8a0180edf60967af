import { unprocessable, type ErrorItem } from '../../errors.js';
import { CUSTOM_FIELD_NAME } from './schemas.js';

/** Column order of a file without a header row (DESIGN.md §5). */
export const HEADERLESS_COLUMNS = [
  'email',
  'first_name',
  'last_name',
  'company',
  'phone',
  'timezone',
  'client_contact_id',
  'external_id',
  'signup_source',
] as const;

/** Header names a CSV may use: the contact body's fields, except `source` (always import) and `custom_fields`. */
export const CSV_FIELDS = [
  ...HEADERLESS_COLUMNS,
  'is_subscribed',
  'unsubscribe_reason',
  'unsubscribed_at',
  'last_purchase_at',
] as const;

export type CsvColumn = { field: (typeof CSV_FIELDS)[number] } | { custom: string } | { ignored: string };

export interface CsvLayout {
  columns: CsvColumn[];
  /** Header names that are not contact fields, each once, in file order. */
  ignored: string[];
}

const CUSTOM_PREFIX = 'custom.';

/**
 * Maps the header row to contact fields: names match case-insensitively after trimming, `custom.<name>` is a
 * custom field, anything else is ignored (and reported). A header without `email`, with a column twice or with an
 * invalid custom field name is a 422 on `file`: every row would be wrong, so none is imported.
 */
export function layoutFromHeader(header: readonly string[]): CsvLayout {
  const errors: ErrorItem[] = [];
  const seen = new Set<string>();
  const ignored: string[] = [];
  const columns = header.map((raw): CsvColumn => {
    const name = raw.trim();
    const lower = name.toLowerCase();
    let column: CsvColumn;
    if (lower.startsWith(CUSTOM_PREFIX)) {
      const custom = name.slice(CUSTOM_PREFIX.length).trim();
      if (!CUSTOM_FIELD_NAME.test(custom)) {
        const error = `Column "${name}": custom field names start with a letter: letters, digits, _ (max 64)`;
        errors.push({ condition: 'format', key: 'file', error });
      }
      column = { custom };
    } else if ((CSV_FIELDS as readonly string[]).includes(lower)) {
      column = { field: lower as (typeof CSV_FIELDS)[number] };
    } else {
      if (name !== '' && !ignored.includes(name)) ignored.push(name);
      return { ignored: name };
    }
    const id = 'field' in column ? column.field : `${CUSTOM_PREFIX}${column.custom}`;
    if (seen.has(id)) errors.push({ condition: 'format', key: 'file', error: `Column "${name}" appears twice in the header` });
    seen.add(id);
    return column;
  });
  if (!seen.has('email')) errors.push({ condition: 'required', key: 'file', error: 'The header row has no "email" column' });
  if (errors.length > 0) throw unprocessable(errors);
  return { columns, ignored };
}

export const HEADERLESS_LAYOUT: CsvLayout = { columns: HEADERLESS_COLUMNS.map((field) => ({ field })), ignored: [] };

// A Map: cell values are the lookup keys, and a cell reading `constructor` must not find Object.prototype's.
const BOOLEAN_WORDS = new Map<string, boolean>([
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
  ['yes', true],
  ['no', false],
  ['y', true],
  ['n', false],
]);

/**
 * One record as the contact body the row validator reads: strings as written (empty = blank), `is_subscribed`
 * read from true/false, 1/0, yes/no. Fields beyond the columns are an error when they hold anything — usually an
 * unquoted delimiter that shifted the row — but trailing empty fields (a spreadsheet's extra commas) are fine.
 */
export function recordToRow(fields: readonly string[], layout: CsvLayout): { row: Record<string, unknown> } | { error: string } {
  const extra = fields.slice(layout.columns.length);
  if (extra.some((f) => f.trim() !== '')) {
    const expected = `${layout === HEADERLESS_LAYOUT ? 'column order has' : 'header has'} ${layout.columns.length}`;
    return { error: `The row has ${fields.length} fields but the ${expected}; quote values that contain the delimiter` };
  }
  const row: Record<string, unknown> = {};
  const custom: Record<string, string> = {};
  layout.columns.forEach((column, i) => {
    const value = fields[i];
    if (value === undefined) return; // a short row: the missing columns are absent, not blank
    if ('custom' in column) custom[column.custom] = value;
    else if ('field' in column) {
      const word = BOOLEAN_WORDS.get(value.trim().toLowerCase());
      row[column.field] = column.field === 'is_subscribed' && word !== undefined ? word : value;
    }
  });
  if (Object.keys(custom).length > 0) row['custom_fields'] = custom;
  return { row };
}
