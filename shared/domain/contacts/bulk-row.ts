import { AppError, type ErrorItem } from '../../errors.js';
import { issuesToItems } from '../../validation/issue-items.js';
import { subscriptionOf } from './build-contact.js';
import { ContactBody } from './schemas.js';

/** Fields an empty value can clear (with `overwrite_blank_fields`); the others ignore an empty value. */
export const BLANKABLE_FIELDS = [
  'client_contact_id',
  'external_id',
  'first_name',
  'last_name',
  'company',
  'phone',
  'timezone',
  'unsubscribe_reason',
  'last_purchase_at',
  'signup_source',
] as const;
export type BlankableField = (typeof BLANKABLE_FIELDS)[number];

/**
 * One import row, split into what it says: `values` holds every non-empty value (validated by the contact body
 * schema, e-mail always present); `blanks` the fields given empty ("" or null), which clear the stored value only
 * with `overwrite_blank_fields`. A field that is absent altogether is in neither and always keeps the stored value.
 */
export interface ContactPatch {
  values: ContactBody;
  blanks: ReadonlySet<BlankableField>;
  blankCustomFields: ReadonlySet<string>;
}

export type ParsedRow = { ok: true; patch: ContactPatch } | { ok: false; email: string | null; errors: ErrorItem[] };

const isBlank = (value: unknown) => value === null || (typeof value === 'string' && value.trim() === '');
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Validates one row of a bulk import (JSON array element or CSV record mapped to field names). Error keys are
 * prefixed with the row's position, e.g. `contacts.3.email` or `rows.4.timezone`; a bad row never throws.
 */
export function parseContactRow(raw: unknown, keyPrefix: string): ParsedRow {
  const prefix = keyPrefix ? keyPrefix.split('.') : [];
  if (!isPlainObject(raw)) {
    return {
      ok: false,
      email: null,
      errors: [{ condition: 'type', key: keyPrefix, error: 'Each contact must be an object' }],
    };
  }
  const present: Record<string, unknown> = {};
  const blanks = new Set<BlankableField>();
  const blankCustomFields = new Set<string>();
  for (const [field, value] of Object.entries(raw)) {
    if (field === 'custom_fields' && isPlainObject(value)) {
      const given: Record<string, unknown> = {};
      for (const [name, fieldValue] of Object.entries(value)) {
        if (isBlank(fieldValue)) blankCustomFields.add(name);
        else given[name] = fieldValue;
      }
      present[field] = given;
    } else if (isBlank(value)) {
      if ((BLANKABLE_FIELDS as readonly string[]).includes(field)) blanks.add(field as BlankableField);
    } else present[field] = value;
  }
  const email =
    typeof raw['email'] === 'string' && raw['email'].trim() !== '' ? raw['email'].trim().toLowerCase() : null;
  const parsed = ContactBody.safeParse(present, { reportInput: true });
  if (!parsed.success) return { ok: false, email, errors: issuesToItems(parsed.error.issues, prefix) };
  try {
    subscriptionOf(parsed.data, new Date(0).toISOString(), keyPrefix ? `${keyPrefix}.` : '');
  } catch (error) {
    if (error instanceof AppError) return { ok: false, email, errors: error.items };
    throw error;
  }
  return { ok: true, patch: { values: parsed.data, blanks, blankCustomFields } };
}
