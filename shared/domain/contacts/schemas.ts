import * as z from 'zod';
import { resolveTimezone } from '../time/timezones.js';

/** Contact `source` values of SPEC.md; input accepts the name or the integer. */
export const CONTACT_SOURCES = ['unknown', 'api', 'import', 'form', 'app'] as const;
export type ContactSourceName = (typeof CONTACT_SOURCES)[number];

const text = (max: number) => z.string().trim().max(max, `Must be at most ${max} characters`);

/** RFC 3339 timestamp with offset, normalised to UTC. */
export const Timestamp = z
  .iso.datetime({ offset: true, message: 'Must be an RFC 3339 timestamp, e.g. 2026-01-31T09:00:00Z' })
  .transform((v) => new Date(v).toISOString());

/** RFC 5321's limit on a forward path; it also keeps every key built from an address far below 1 024 bytes. */
export const MAX_EMAIL_LENGTH = 254;

export const Email = z
  .string({ error: (i) => (i.input === undefined ? 'email is required' : 'email must be a string') })
  .trim()
  .toLowerCase()
  .max(MAX_EMAIL_LENGTH, `Must be at most ${MAX_EMAIL_LENGTH} characters`)
  .pipe(z.email({ message: 'Must be a valid e-mail address' }));

export const Timezone = z.string().transform((value, ctx) => {
  if (value.trim() === '') return undefined;
  const zone = resolveTimezone(value);
  if (!zone) {
    ctx.addIssue({ code: 'custom', message: 'Must be an IANA time zone name such as Europe/Paris', params: { condition: 'format' } });
    return z.NEVER;
  }
  return zone;
});

export const Source = z.union(
  [z.enum(CONTACT_SOURCES).transform((name) => CONTACT_SOURCES.indexOf(name)), z.int().min(0).max(4)],
  { error: 'Must be one of unknown, api, import, form, app or an integer 0 to 4' },
);

export const CUSTOM_FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
export const CustomFieldValue = z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]);
export const CustomFields = z
  .record(
    z.string().regex(CUSTOM_FIELD_NAME, 'Custom field names start with a letter: letters, digits, _ (max 64)'),
    CustomFieldValue,
  )
  .refine((o) => Object.keys(o).length <= 50, { message: 'At most 50 custom fields', params: { condition: 'max' } });

/**
 * The contact body of POST /client/contacts (and each row of the bulk endpoints). Only `email` is required.
 * Optional strings are trimmed; an empty string means "no value".
 */
export const ContactBody = z.object({
  email: Email,
  client_contact_id: text(255).optional(),
  external_id: text(255).optional(),
  first_name: text(100).optional(),
  last_name: text(100).optional(),
  company: text(200).optional(),
  phone: text(50).optional(),
  timezone: Timezone.optional(),
  is_subscribed: z.boolean().optional(),
  unsubscribe_reason: text(500).optional(),
  unsubscribed_at: Timestamp.optional(),
  last_purchase_at: Timestamp.optional(),
  signup_source: text(100).optional(),
  source: Source.optional(),
  custom_fields: CustomFields.optional(),
});
export type ContactBody = z.output<typeof ContactBody>;

/**
 * `{id}` of the contact paths: digits are an id, anything else an e-mail address (case-insensitive). A value no
 * contact can have (over 15 digits, an "e-mail" longer than an address may be) names nothing: the lookup answers
 * 404 without asking the store, whose keys are bounded (DynamoDB: 1 024 bytes).
 */
export const ContactRef = z.object({
  id: z
    .string()
    .trim()
    .min(1)
    .transform((v): { id: number } | { email: string } | { none: true } => {
      if (/^\d+$/.test(v)) return v.length <= 15 ? { id: Number(v) } : { none: true };
      return v.length <= MAX_EMAIL_LENGTH ? { email: v.toLowerCase() } : { none: true };
    })
    .meta({ description: 'The contact id, or its e-mail address (URL-encoded, case-insensitive)' }),
});

export const SubscriptionBody = z.object({
  is_subscribed: z.boolean({ error: (i) => (i.input === undefined ? 'is_subscribed is required' : 'Must be a boolean') }),
  unsubscribe_reason: text(500).optional(),
});
export type SubscriptionBody = z.output<typeof SubscriptionBody>;
