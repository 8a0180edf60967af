import * as z from '../../validation/zod.js';
import { unprocessable, type ErrorItem } from '../../errors.js';
import { aliasFor, CSV_EXPORTERS, detectExporter, headerKey, type CsvExporter } from './csv-aliases.js';
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

export type CsvField = (typeof CSV_FIELDS)[number];

/** A column: a contact field, a custom field, the full name (split into first and last name), or not imported. */
export type CsvColumn = { field: CsvField } | { custom: string } | { fullName: true } | { ignored: string };

const MAPPING_SOURCES = [
  'field',
  'custom',
  'unknown',
  ...CSV_EXPORTERS.map((tool) => `alias:${tool}` as const),
] as const;

/** How one header was understood (`meta.column_mapping` of the CSV import, in file order). */
export const CsvColumnMapping = z
  .object({
    header: z.string().check(z.meta({ description: 'The header as written in the file (trimmed)' })),
    field: z.nullable(z.string()).check(
      z.meta({
        description:
          'Where its values go: a contact field, `custom_fields.<name>`, `first_name+last_name` (a full name, split at ' +
          'the first space); null when the column is not imported',
        examples: ['email'],
      }),
    ),
    source: z.enum(MAPPING_SOURCES).check(
      z.meta({
        description:
          'Why: `field` (a contact field name, ignoring case and punctuation), `custom` (a `custom.<name>` column), ' +
          '`alias:<tool>` (a header of that tool\'s export, docs/api-guide.md "Bulk import"), `unknown` (not imported)',
      }),
    ),
  })
  .check(z.meta({ id: 'CsvColumnMapping' }));
export type CsvColumnMapping = z.output<typeof CsvColumnMapping>;

export interface CsvLayout {
  columns: CsvColumn[];
  /** Header names whose values are not imported (unknown or ignored on purpose), each once, in file order. */
  ignored: string[];
  /** Each header as understood, in file order (empty without a header row). */
  mapping: CsvColumnMapping[];
}

const CUSTOM_PREFIX = 'custom.';
const FIELD_BY_KEY = new Map<string, CsvField>(CSV_FIELDS.map((field) => [headerKey(field), field]));

/** One header as a column, the fields it fills (custom ones as `custom_fields.<name>`) and its mapping source. */
function readHeader(
  name: string,
  exporter: CsvExporter | undefined,
): { column: CsvColumn; fills: string[]; source: CsvColumnMapping['source'] } {
  if (name.toLowerCase().startsWith(CUSTOM_PREFIX)) {
    const custom = name.slice(CUSTOM_PREFIX.length).trim();
    return { column: { custom }, fills: [`custom_fields.${custom}`], source: 'custom' };
  }
  const key = headerKey(name);
  const field = FIELD_BY_KEY.get(key);
  if (field) return { column: { field }, fills: [field], source: 'field' };
  const alias = aliasFor(key, exporter);
  if (!alias) return { column: { ignored: name }, fills: [], source: 'unknown' };
  const source = `alias:${alias.tool}` as const;
  const { target } = alias;
  if ('field' in target) return { column: { field: target.field }, fills: [target.field], source };
  if ('custom' in target)
    return { column: { custom: target.custom }, fills: [`custom_fields.${target.custom}`], source };
  if ('fullName' in target) return { column: { fullName: true }, fills: ['first_name', 'last_name'], source };
  return { column: { ignored: name }, fills: [], source };
}

/**
 * Maps the header row to contact fields: a contact field name or an alias from another tool's export (csv-aliases.ts),
 * ignoring case and punctuation; `custom.<name>` is a custom field; anything else is not imported (and reported).
 * A header without `email`, two columns filling one field (named in the error) or an invalid custom field name is
 * a 422 on `file`: every row would be wrong or ambiguous, so none is imported.
 */
export function layoutFromHeader(header: readonly string[]): CsvLayout {
  const names = header.map((raw) => raw.trim());
  const exporter = detectExporter(names);
  const errors: ErrorItem[] = [];
  const filledBy = new Map<string, string>();
  const ignored: string[] = [];
  const mapping: CsvColumnMapping[] = [];
  const columns = names.map((name): CsvColumn => {
    const { column, fills, source } = readHeader(name, exporter);
    if ('custom' in column && !CUSTOM_FIELD_NAME.test(column.custom)) {
      const error = `Column "${name}": custom field names start with a letter: letters, digits, _ (max 64)`;
      errors.push({ condition: 'format', key: 'file', error });
    }
    for (const field of fills) {
      const earlier = filledBy.get(field);
      if (earlier === undefined) filledBy.set(field, name);
      else errors.push({ condition: 'format', key: 'file', error: clash(earlier, name, field) });
    }
    if ('ignored' in column && name !== '' && !ignored.includes(name)) ignored.push(name);
    mapping.push({ header: name, field: fills.length > 0 ? fills.join('+') : null, source });
    return column;
  });
  if (!filledBy.has('email'))
    errors.push({ condition: 'required', key: 'file', error: 'The header row has no "email" column' });
  if (errors.length > 0)
    throw unprocessable(errors.filter((e, i) => errors.findIndex((o) => o.error === e.error) === i));
  return { columns, ignored, mapping };
}

/** Two headers filling one field: the same header twice, or two names for one field (never a silent choice). */
function clash(earlier: string, later: string, field: string): string {
  if (earlier.toLowerCase() === later.toLowerCase()) return `Column "${later}" appears twice in the header`;
  return `Columns "${earlier}" and "${later}" both map to ${field}; remove or rename one of them`;
}

export const HEADERLESS_LAYOUT: CsvLayout = {
  columns: HEADERLESS_COLUMNS.map((field) => ({ field })),
  ignored: [],
  mapping: [],
};

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
 * read from true/false, 1/0, yes/no, a full name split in two. Fields beyond the columns are an error when they hold anything — usually an
 * unquoted delimiter that shifted the row — but trailing empty fields (a spreadsheet's extra commas) are fine.
 */
export function recordToRow(
  fields: readonly string[],
  layout: CsvLayout,
): { row: Record<string, unknown> } | { error: string } {
  const extra = fields.slice(layout.columns.length);
  if (extra.some((f) => f.trim() !== '')) {
    const expected = `${layout === HEADERLESS_LAYOUT ? 'column order has' : 'header has'} ${layout.columns.length}`;
    return {
      error: `The row has ${fields.length} fields but the ${expected}; quote values that contain the delimiter`,
    };
  }
  const row: Record<string, unknown> = {};
  const custom: Record<string, string> = {};
  layout.columns.forEach((column, i) => {
    const value = fields[i];
    if (value === undefined) return; // a short row: the missing columns are absent, not blank
    if ('custom' in column) custom[column.custom] = value;
    else if ('fullName' in column) Object.assign(row, splitFullName(value));
    else if ('field' in column) row[column.field] = cellValue(column.field, value);
  });
  if (Object.keys(custom).length > 0) row['custom_fields'] = custom;
  return { row };
}

function cellValue(field: CsvField, value: string): unknown {
  if (field === 'is_subscribed') return BOOLEAN_WORDS.get(value.trim().toLowerCase()) ?? value;
  // HubSpot exports its time zone property as a slug of the IANA name: america_slash_new_york.
  if (field === 'timezone') return value.replace(/_slash_/gi, '/').replace(/_hyphen_/gi, '-');
  return value;
}

/**
 * A full name (Stripe's `Name`) split at the first space: "Ada King Lovelace" → Ada / King Lovelace. Nothing is
 * lost (the two parts read back as the name); a family-name-first order comes out swapped (docs/api-guide.md "Bulk import").
 */
function splitFullName(value: string): { first_name: string; last_name: string } {
  const name = value.trim();
  const space = name.search(/\s/);
  return space < 0
    ? { first_name: name, last_name: '' }
    : { first_name: name.slice(0, space), last_name: name.slice(space).trim() };
}
