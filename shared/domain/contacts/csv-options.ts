import * as z from 'zod';
import { unprocessable } from '../../errors.js';
import { issuesToItems } from '../../validation/issue-items.js';
import { resolveTimezone } from '../time/timezones.js';

const emptyToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const FormBoolean = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { error: 'Must be true or false' }))
    .transform((v) => v === 'true' || v === '1' || v === 'yes' || v === 'on')
    .optional(),
);

// A Map: the caller's value is the lookup key, and `constructor` must not find Object.prototype's.
const NAMED_DELIMITERS = new Map([['\\t', '\t'], ['tab', '\t'], ['comma', ','], ['semicolon', ';'], ['pipe', '|']]);

/** One character; `\t` / `tab` (and comma, semicolon, pipe) by name, as a tab is awkward to type in a form. */
const Delimiter = z.string().transform((value, ctx) => {
  const delimiter = NAMED_DELIMITERS.get(value.toLowerCase()) ?? value;
  if ([...delimiter].length !== 1 || delimiter === '"' || delimiter === '\r' || delimiter === '\n') {
    const message = 'Must be one character (not a quote or line break), e.g. "," ";" or "\\t"';
    ctx.addIssue({ code: 'custom', message, params: { condition: 'format' } });
    return z.NEVER;
  }
  return delimiter;
});

const DefaultTimezone = z.string().transform((value, ctx) => {
  const zone = resolveTimezone(value);
  if (!zone) {
    ctx.addIssue({
      code: 'custom',
      message: 'Unknown time zone: use an IANA name such as America/New_York or an alias such as EST, PST, SGT',
      params: { condition: 'format' },
    });
    return z.NEVER;
  }
  return zone;
});

/** The form fields of POST /client/contacts/bulk/csv besides `file`; all optional. */
export const CsvImportOptions = z.object({
  has_header: FormBoolean.transform((v) => v ?? true),
  delimiter: z.preprocess((v) => (v === '' ? undefined : v), Delimiter.optional()).transform((v) => v ?? ','),
  overwrite_blank_fields: FormBoolean.transform((v) => v ?? false),
  default_timezone: z.preprocess(emptyToUndefined, DefaultTimezone.optional()),
});
export type CsvImportOptions = z.output<typeof CsvImportOptions>;

/** Validates the form fields (strings as multipart sends them); all problems at once as a 422. */
export function parseCsvImportOptions(fields: Record<string, string>): CsvImportOptions {
  const parsed = CsvImportOptions.safeParse(fields, { reportInput: true });
  if (!parsed.success) throw unprocessable(issuesToItems(parsed.error.issues));
  return parsed.data;
}
