import * as z from '../../validation/zod.js';
import { storableNumber } from '../../validation/storable-value.js';
import { emailFormat, MAX_EMAIL_LENGTH } from '../../validation/email-address.js';
import { MAX_PATH_ID_LENGTH, MAX_TIMESTAMP_LENGTH } from '../../validation/string-bounds.js';
import { zoneName } from '../time/zone-name.js';
import { issueCondition } from '../../validation/issue-items.js';
import { CONTACT_SOURCES, UNSUBSCRIBE_REASON_MAX } from '../../public/contact-rules.js';

export { CONTACT_SOURCES };
export type ContactSourceName = (typeof CONTACT_SOURCES)[number];

const text = (max: number) => z.string().check(z.trim(), z.maxLength(max, `Must be at most ${max} characters`));

/** RFC 3339 timestamp with offset, normalised to UTC. */
export const Timestamp = z.pipe(
  z.iso
    .datetime({ offset: true, message: 'Must be an RFC 3339 timestamp, e.g. 2026-01-31T09:00:00Z' })
    .check(z.maxLength(MAX_TIMESTAMP_LENGTH, `Must be at most ${MAX_TIMESTAMP_LENGTH} characters`)),
  z.transform((v: string) => new Date(v).toISOString()),
);

export { MAX_EMAIL_LENGTH } from '../../validation/email-address.js';

/**
 * Trimmed, lower-cased, at most 254 characters, and the service's e-mail rule (shared/validation/email-address.ts) — one string schema with checks (not a pipe),
 * so the document shows `format: email` and the rule's own `pattern`: stricter than `format: email` alone (no quoted
 * local parts, no IP literals, a dotted domain), it is what the service accepts.
 */
export const Email = z
  .string({ error: (i) => (i.input === undefined ? 'email is required' : 'email must be a string') })
  .check(
    z.trim(),
    z.toLowerCase(),
    z.maxLength(MAX_EMAIL_LENGTH, { message: `Must be at most ${MAX_EMAIL_LENGTH} characters`, abort: true }),
    emailFormat(),
  );

export const Timezone = zoneName(undefined).check(
  z.meta({
    description: 'An IANA time zone name such as Europe/Paris, or an alias (EST, PST, SGT…); answered as the IANA name',
  }),
);

export const Source = z.union(
  [
    z.pipe(
      z.enum(CONTACT_SOURCES),
      z.transform((name: ContactSourceName) => CONTACT_SOURCES.indexOf(name)),
    ),
    z.int().check(z.gte(0), z.lte(4)),
  ],
  { error: 'Must be one of unknown, api, import, form, app or an integer 0 to 4' },
);

export const CUSTOM_FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
export const CustomFieldValue = z.union(
  [z.string().check(z.maxLength(1000)), storableNumber(), z.boolean(), z.null()],
  {
    error: 'Must be a string (at most 1000 characters), a number, a boolean or null',
  },
);
export const CustomFields = z
  .record(
    z
      .string()
      .check(
        z.maxLength(64, 'Custom field names start with a letter: letters, digits, _ (max 64)'),
        z.regex(CUSTOM_FIELD_NAME, 'Custom field names start with a letter: letters, digits, _ (max 64)'),
      ),
    CustomFieldValue,
  )
  .check(
    z.refine((o) => Object.keys(o).length <= 50, {
      message: 'At most 50 custom fields',
      params: issueCondition('max'),
    }),
    z.meta({ maxProperties: 50 }),
  );

/**
 * The contact body of POST /client/contacts (and each row of the bulk endpoints). Only `email` is required.
 * Optional strings are trimmed; an empty string means "no value".
 */
/** JSON Schema of subscriptionOf's rule (build-contact.ts): unsubscribed_at never goes with is_subscribed true. */
export const UNSUBSCRIBED_AT_RULE = {
  not: {
    properties: { is_subscribed: { const: true }, unsubscribed_at: {} },
    required: ['is_subscribed', 'unsubscribed_at'],
  },
};

export const ContactBody = z.object({
  email: Email,
  client_contact_id: z.optional(text(255)),
  external_id: z.optional(text(255)),
  first_name: z.optional(text(100)),
  last_name: z.optional(text(100)),
  company: z.optional(text(200)),
  phone: z.optional(text(50)),
  timezone: z.optional(Timezone),
  is_subscribed: z.optional(z.boolean()),
  unsubscribe_reason: z.optional(text(UNSUBSCRIBE_REASON_MAX)),
  unsubscribed_at: z.optional(Timestamp),
  last_purchase_at: z.optional(Timestamp),
  signup_source: z.optional(text(100)),
  source: z.optional(Source),
  custom_fields: z.optional(CustomFields),
});
export type ContactBody = z.output<typeof ContactBody>;

/** POST /client/contacts: the contact body with its cross-field rule stated for the document. */
export const ContactCreateBody = ContactBody.check(z.meta(UNSUBSCRIBED_AT_RULE));

/**
 * `{id}` of the contact paths: digits are an id, anything else an e-mail address (case-insensitive). A value no
 * contact can have (blank or whitespace only, over 15 digits, an "e-mail" longer than an address may be) names
 * nothing: the lookup answers 404 without asking the store, whose keys are bounded (DynamoDB: 1 024 bytes).
 */
export const ContactRef = z.object({
  id: z
    .pipe(
      z.string().check(z.maxLength(MAX_PATH_ID_LENGTH, `Must be at most ${MAX_PATH_ID_LENGTH} characters`), z.trim()),
      z.transform((v: string): { id: number } | { email: string } | { none: true } => {
        if (v === '') return { none: true };
        if (/^\d+$/.test(v)) return v.length <= 15 ? { id: Number(v) } : { none: true };
        return v.length <= MAX_EMAIL_LENGTH ? { email: v.toLowerCase() } : { none: true };
      }),
    )
    .check(z.meta({ description: 'The contact id, or its e-mail address (URL-encoded, case-insensitive)' })),
});

export const SubscriptionBody = z.object({
  is_subscribed: z.boolean({
    error: (i) => (i.input === undefined ? 'is_subscribed is required' : 'Must be a boolean'),
  }),
  unsubscribe_reason: z
    .optional(text(UNSUBSCRIBE_REASON_MAX))
    .check(z.meta({ description: 'Kept with an unsubscription of the whole contact; not used with topic_id' })),
  topic_id: z.optional(z.int({ error: 'Must be a topic id (integer)' }).check(z.gte(1, 'Must be a topic id'))).check(
    z.meta({
      description:
        "Changes this topic's choice only (GET /client/topics), leaving the contact's is_subscribed as it is. Depends on " +
        'stored data: a topic the client does not have is a 404 on `topic_id`',
    }),
  ),
});
export type SubscriptionBody = z.output<typeof SubscriptionBody>;
