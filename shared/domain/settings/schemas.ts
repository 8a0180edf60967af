import * as z from '../../validation/zod.js';
import { rejectInTransform } from '../../validation/transform-issue.js';
import { boundedString } from '../../validation/string-bounds.js';
import { EMAIL_PATTERN, emailFormat, MAX_EMAIL_LENGTH } from '../../validation/email-address.js';
import { zoneName } from '../time/zone-name.js';
import { WORKFLOW_IDS } from '../workflows/catalog.js';
import {
  MAX_PREFERENCES,
  SETTINGS_HOUR_RANGE,
  SETTINGS_INT_RANGE,
  SETTINGS_MINUTE_RANGE,
  SETTINGS_QUOTA_MAX,
  SETTINGS_TEXT_MAX,
} from '../../public/settings-rules.js';
import { issueCondition } from '../../validation/issue-items.js';

/**
 * PATCH /client/settings. Merge-patch semantics: an absent field is left as it is, `null` unsets it (as does its
 * `clear_*` flag), anything else replaces it. Every field yields at most one error item, so a body that breaks every
 * bound gets exactly one item per field.
 */

const int = (min: number, max: number, what: string) =>
  z
    .int({ error: `Must be an integer from ${min} to ${max}${what}` })
    .check(
      z.gte(min, { message: `Must be at least ${min}${what}`, abort: true }),
      z.lte(max, { message: `Must be at most ${max}${what}` }),
    );

const hour = int(SETTINGS_HOUR_RANGE.min, SETTINGS_HOUR_RANGE.max, ' (hour of the day)');
const minute = int(SETTINGS_MINUTE_RANGE.min, SETTINGS_MINUTE_RANGE.max, ' (minute of the hour)');
const MAX_QUOTA = SETTINGS_QUOTA_MAX;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is to refuse exactly these characters.
const CONTROL_CHARS = /[\u0000-\u0008\u000B-\u001F\u007F]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is to refuse exactly these characters.
const LINE_BREAKS_OR_CONTROL = /[\u0000-\u001F\u007F]/;

/**
 * Trimmed text; "" unsets. `singleLine` for values that end up in mail headers (no CR/LF). The document states the
 * length and the characters (before the trim, so a little stricter than the service).
 */
const text = (max: number, singleLine = false) =>
  z
    .pipe(
      z.string(),
      z.transform((raw: string, ctx) => {
        const v = raw.trim();
        if (v === '') return null;
        if (v.length > max) return rejectInTransform(ctx, 'max', `Must be at most ${max} characters`);
        if ((singleLine ? LINE_BREAKS_OR_CONTROL : CONTROL_CHARS).test(v)) {
          return rejectInTransform(
            ctx,
            'format',
            singleLine ? 'Must be one line without control characters' : 'Must not contain control characters',
          );
        }
        return v;
      }),
    )
    .check(
      z.meta({
        maxLength: max,
        pattern: singleLine ? '^[^\\u0000-\\u001F\\u007F]*$' : '^[^\\u0000-\\u0008\\u000B-\\u001F\\u007F]*$',
        description: `At most ${max} characters${singleLine ? ', one line' : ''}, no control characters; "" or null unsets it`,
      }),
    );

const EMAIL = emailFormat();
const email = z
  .pipe(
    z.string(),
    z.transform((raw: string, ctx) => {
      const v = raw.trim().toLowerCase();
      if (v === '') return null;
      if (v.length > MAX_EMAIL_LENGTH || !EMAIL.safeParse(v).success)
        return rejectInTransform(ctx, 'format', 'Must be a valid e-mail address');
      return v;
    }),
  )
  .check(
    z.meta({
      format: 'email',
      maxLength: MAX_EMAIL_LENGTH,
      pattern: EMAIL_PATTERN.source,
      description: 'An e-mail address (trimmed, lower-cased); "" or null unsets it',
    }),
  );

const httpsUrl = z
  .pipe(
    z.string(),
    z.transform((raw: string, ctx) => {
      const v = raw.trim();
      if (v === '') return null;
      let url: URL | undefined;
      try {
        url = new URL(v);
      } catch {
        url = undefined;
      }
      if (!url || url.protocol !== 'https:' || url.hostname === '' || v.length > 2048) {
        return rejectInTransform(ctx, 'format', 'Must be an https:// URL of at most 2048 characters');
      }
      return v;
    }),
  )
  .check(
    z.meta({
      format: 'uri',
      maxLength: 2048,
      pattern: '^https://[^\\s/?#]+',
      description: 'An https:// URL; "" or null unsets it',
    }),
  );

// Bounds above the rule's own length: surrounding blanks are trimmed before the rule reads the value.
const color = z
  .pipe(
    boundedString(32),
    z.transform((raw: string, ctx) => {
      const v = raw.trim();
      if (!/^#[0-9A-Fa-f]{6}$/.test(v)) return rejectInTransform(ctx, 'format', 'Must be a colour in the form #RRGGBB');
      return v.toUpperCase();
    }),
  )
  .check(z.meta({ pattern: '^#[0-9A-Fa-f]{6}$', description: 'A colour #RRGGBB; null unsets it' }));

const timezone = zoneName(null).check(
  z.meta({ description: 'An IANA time zone name such as Europe/Paris, or an alias (EST, PST, SGT…); null unsets it' }),
);

const allowedDays = z
  .pipe(
    boundedString(64),
    z.transform((raw: string, ctx) => {
      const parts = raw.split(',').map((d) => d.trim());
      const valid = parts.every((d) => /^[1-7]$/.test(d)) && new Set(parts).size === parts.length;
      if (!valid) {
        return rejectInTransform(
          ctx,
          'format',
          'Must be distinct ISO weekday numbers 1 (Monday) to 7 (Sunday), comma separated, e.g. "1,2,3,4,5"',
        );
      }
      return parts
        .map(Number)
        .sort((a, b) => a - b)
        .join(',');
    }),
  )
  .check(
    z.meta({
      pattern: '^[1-7](?:,[1-7]){0,6}$',
      description: 'Distinct ISO weekday numbers, 1 (Monday) to 7 (Sunday), comma separated, e.g. "1,2,3,4,5"',
      examples: ['1,2,3,4,5'],
    }),
  );

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** Arrays are checked as a whole so a field yields one item, not one per element. */
const intArray = (what: string) =>
  z.pipe(
    z.array(z.unknown(), { error: `Must be an array of ${what}` }),
    z.transform((values: unknown[], ctx) => {
      if (!values.every(isInt)) return rejectInTransform(ctx, 'type', `Must be an array of ${what}`);
      return values;
    }),
  );

const enabledWorkflows = z
  .pipe(
    intArray('workflow ids (integers)'),
    z.transform((ids: number[], ctx) => {
      const unknown = ids.filter((id) => !WORKFLOW_IDS.includes(id));
      if (unknown.length > 0) {
        return rejectInTransform(
          ctx,
          'enum',
          `Unknown workflow id(s) ${unknown.join(', ')}; known ids are ${WORKFLOW_IDS.join(', ')}`,
        );
      }
      if (new Set(ids).size !== ids.length) return rejectInTransform(ctx, 'format', 'Must not repeat a workflow id');
      return [...ids].sort((a, b) => a - b);
    }),
  )
  .check(
    z.meta({
      items: { type: 'integer', enum: [...WORKFLOW_IDS] },
      uniqueItems: true,
      description: `Workflow ids (GET /client/workflows). Depends on stored data: more than the client's workflow limit (custom_max_workflows or the plan's) is a 422 \`max\``,
    }),
  );

const preferences = z
  .pipe(
    intArray('integers'),
    z.transform((values: number[], ctx) => {
      if (values.length > MAX_PREFERENCES)
        return rejectInTransform(ctx, 'max', `At most ${MAX_PREFERENCES} preferences`);
      if (values.some((v) => v < 0 || v > MAX_QUOTA))
        return rejectInTransform(ctx, 'min', 'Preferences are non-negative integers');
      if (new Set(values).size !== values.length) return rejectInTransform(ctx, 'format', 'Must not repeat a value');
      return values;
    }),
  )
  .check(
    z.meta({
      items: { type: 'integer', minimum: 0, maximum: MAX_QUOTA },
      maxItems: MAX_PREFERENCES,
      uniqueItems: true,
    }),
  );

const bool = z.boolean({ error: 'Must be a boolean' });

/** The document's mark of a rule that depends on stored data (docs/decisions/0079-the-document-states-the-rules.md). */
const PLAN_BOUND = "Depends on stored data: above the client's plan limit (SubscriptionPlan) it is a 422 `max`";

/** Each writable field with its schema (null = unset, handled by `nullable`). */
export const SETTINGS_FIELD_SCHEMAS = {
  morning_send_hour: hour,
  morning_send_minute: minute,
  afternoon_send_hour: hour,
  afternoon_send_minute: minute,
  quiet_hour_start: hour,
  quiet_hour_end: hour,
  send_window_enabled: bool,
  send_window_start_hour: hour,
  send_window_end_hour: hour,
  send_window_allowed_days: allowedDays,
  timezone,
  max_emails_per_day: int(
    SETTINGS_INT_RANGE.max_emails_per_day.min,
    SETTINGS_INT_RANGE.max_emails_per_day.max,
    ' (e-mails per contact per day)',
  ),
  queue_timeout_days: int(
    SETTINGS_INT_RANGE.queue_timeout_days.min,
    SETTINGS_INT_RANGE.queue_timeout_days.max,
    ' (days)',
  ),
  custom_email_quota_per_day: int(
    SETTINGS_INT_RANGE.custom_email_quota_per_day.min,
    SETTINGS_INT_RANGE.custom_email_quota_per_day.max,
    '',
  ).check(z.meta({ description: PLAN_BOUND })),
  custom_email_quota_per_month: int(
    SETTINGS_INT_RANGE.custom_email_quota_per_month.min,
    SETTINGS_INT_RANGE.custom_email_quota_per_month.max,
    '',
  ).check(z.meta({ description: PLAN_BOUND })),
  custom_max_workflows: int(
    SETTINGS_INT_RANGE.custom_max_workflows.min,
    SETTINGS_INT_RANGE.custom_max_workflows.max,
    '',
  ).check(z.meta({ description: PLAN_BOUND })),
  enable_critical_bypass: bool,
  ai_advisor_enabled: bool,
  auto_approve_enabled: bool,
  enabled_workflows: enabledWorkflows,
  preferences,
  brand_name: text(SETTINGS_TEXT_MAX.brand_name, true),
  brand_logo_url: httpsUrl,
  brand_primary_color: color,
  brand_secondary_color: color,
  company_name: text(SETTINGS_TEXT_MAX.company_name, true),
  company_address: text(SETTINGS_TEXT_MAX.company_address),
  email_from_name: text(SETTINGS_TEXT_MAX.email_from_name, true),
  email_from_address: email.check(
    z.meta({
      description:
        "The From of the client's e-mails. Depends on stored data: an address at one of its verified domains " +
        "(exactly the domain: a subdomain must be verified itself; POST /client/domains), never the service's own " +
        'senders; otherwise 422 `unsafe`. Unset: no-reply@ the first verified domain, or in the sandbox the ' +
        "service's onboarding sender. A " +
        'stored value that breaks the rule is never used and shows in `sending.problems`. "" or null unsets it',
    }),
  ),
  email_reply_to: email.check(
    z.meta({
      description:
        'Where replies go: any address (mailbox providers authenticate the From, not the Reply-To); "" or null unsets it',
    }),
  ),
  email_signature: text(SETTINGS_TEXT_MAX.email_signature),
} as const;

export type SettingsFieldName = keyof typeof SETTINGS_FIELD_SCHEMAS;
export const SETTINGS_FIELD_NAMES = Object.keys(SETTINGS_FIELD_SCHEMAS) as SettingsFieldName[];

/** The fields SPEC.md gives a `clear_<field>` flag. */
export const CLEARABLE_FIELDS = [
  'afternoon_send_hour',
  'afternoon_send_minute',
  'morning_send_hour',
  'morning_send_minute',
  'custom_email_quota_per_day',
  'custom_email_quota_per_month',
  'custom_max_workflows',
  'quiet_hour_start',
  'quiet_hour_end',
  'send_window_allowed_days',
  'send_window_start_hour',
  'send_window_end_hour',
] as const satisfies readonly SettingsFieldName[];
export type ClearableField = (typeof CLEARABLE_FIELDS)[number];

const fieldShape = Object.fromEntries(
  SETTINGS_FIELD_NAMES.map((name) => [name, z.optional(z.nullable(SETTINGS_FIELD_SCHEMAS[name]))]),
) as { [K in SettingsFieldName]: z.ZodMiniOptional<z.ZodMiniNullable<(typeof SETTINGS_FIELD_SCHEMAS)[K]>> };

const clearShape = Object.fromEntries(CLEARABLE_FIELDS.map((name) => [`clear_${name}`, z.optional(bool)])) as {
  [K in ClearableField as `clear_${K}`]: z.ZodMiniOptional<typeof bool>;
};

export const SettingsPatch = z.object({ ...fieldShape, ...clearShape }).check(
  z.superRefine(
    (body, ctx) => {
      // Runs even when other fields failed (see `when`), so the pair conflict is reported with everything else;
      // a field that already has an item gets no second one.
      const failed = new Set(ctx.issues.map((i) => i.path?.[0]));
      for (const name of CLEARABLE_FIELDS) {
        const flag = `clear_${name}` as const;
        if (failed.has(name) || failed.has(flag)) continue;
        const value = body[name];
        if (body[flag] === true && value !== undefined && value !== null) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: `Send either ${name} or ${flag}: true, not both`,
            params: issueCondition('format'),
          });
        }
      }
    },
    { when: (payload) => payload.value !== null && typeof payload.value === 'object' },
  ),
  // The pair rule above, as the document says it: never a value and its clear flag true together.
  z.meta({
    allOf: CLEARABLE_FIELDS.map((name) => ({
      not: {
        properties: { [name]: { not: { type: 'null' } }, [`clear_${name}`]: { const: true } },
        required: [name, `clear_${name}`],
      },
    })),
  }),
);
export type SettingsPatch = z.output<typeof SettingsPatch>;
