import * as z from '../../validation/zod.js';
import { rejectInTransform } from '../../validation/transform-issue.js';
import { unprocessable } from '../../errors.js';
import { issuesToItems } from '../../validation/issue-items.js';
import { resolveTimezone } from '../time/timezones.js';
import { boundedString, MAX_ZONE_NAME_LENGTH } from '../../validation/string-bounds.js';

const emptyToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/** The words a yes/no form field takes (trimmed, any case); empty means the default. */
export const BOOLEAN_WORDS = ['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'] as const;

// Mini has no `z.preprocess`: classic's is this very pipe (a transform, then the schema).
const FormBoolean = z.pipe(
  z.transform(emptyToUndefined),
  z.optional(
    z.pipe(
      z.pipe(z.string().check(z.trim(), z.toLowerCase()), z.enum(BOOLEAN_WORDS, { error: 'Must be true or false' })),
      z.transform((v: (typeof BOOLEAN_WORDS)[number]) => v === 'true' || v === '1' || v === 'yes' || v === 'on'),
    ),
  ),
);

// A Map: the caller's value is the lookup key, and `constructor` must not find Object.prototype's.
/** Delimiters a form can name (any case), beside one character. */
export const NAMED_DELIMITERS = new Map([
  ['\\t', '\t'],
  ['tab', '\t'],
  ['comma', ','],
  ['semicolon', ';'],
  ['pipe', '|'],
]);

/** The longest way to name a delimiter (`semicolon`). */
export const MAX_DELIMITER_LENGTH = 9;

/** One character; `\t` / `tab` (and comma, semicolon, pipe) by name, as a tab is awkward to type in a form. */
const Delimiter = z.pipe(
  boundedString(MAX_DELIMITER_LENGTH),
  z.transform((value: string, ctx) => {
    const delimiter = NAMED_DELIMITERS.get(value.toLowerCase()) ?? value;
    if ([...delimiter].length !== 1 || delimiter === '"' || delimiter === '\r' || delimiter === '\n') {
      return rejectInTransform(
        ctx,
        'format',
        'Must be one character (not a quote or line break), e.g. "," ";" or "\\t"',
      );
    }
    return delimiter;
  }),
);

const DefaultTimezone = z.pipe(
  boundedString(MAX_ZONE_NAME_LENGTH),
  z.transform((value: string, ctx) => {
    const zone = resolveTimezone(value);
    if (!zone) {
      return rejectInTransform(
        ctx,
        'format',
        'Unknown time zone: use an IANA name such as America/New_York or an alias such as EST, PST, SGT',
      );
    }
    return zone;
  }),
);

/** The form fields of POST /client/contacts/bulk/csv besides `file`; all optional. */
export const CsvImportOptions = z.object({
  has_header: z.pipe(
    FormBoolean,
    z.transform((v: boolean | undefined) => v ?? true),
  ),
  delimiter: z.pipe(
    z.pipe(
      z.transform((v: unknown) => (v === '' ? undefined : v)),
      z.optional(Delimiter),
    ),
    z.transform((v: string | undefined) => v ?? ','),
  ),
  overwrite_blank_fields: z.pipe(
    FormBoolean,
    z.transform((v: boolean | undefined) => v ?? false),
  ),
  default_timezone: z.pipe(z.transform(emptyToUndefined), z.optional(DefaultTimezone)),
});
export type CsvImportOptions = z.output<typeof CsvImportOptions>;

/** Validates the form fields (strings as multipart sends them); all problems at once as a 422. */
export function parseCsvImportOptions(fields: Record<string, string>): CsvImportOptions {
  const parsed = CsvImportOptions.safeParse(fields, { reportInput: true });
  if (!parsed.success) throw unprocessable(issuesToItems(parsed.error.issues));
  return parsed.data;
}
