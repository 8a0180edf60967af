import { BROADCAST_LIMITS as L, BROADCAST_STATUSES } from '../../public/broadcast-rules.js';
import { plainIdParam } from '../../validation/plain-id.js';
import { Email } from '../contacts/schemas.js';
import * as z from '../../validation/zod.js';

const id = (field: string, what: string) =>
  z
    .int({ error: `${field} must be an integer` })
    .check(
      z.gte(1, 'Must be at least 1'),
      z.lte(999_999_999, 'Must be at most 999999999'),
      z.meta({ description: what }),
    );

const name = z.string({ error: (i) => (i.input === undefined ? 'name is required' : 'Must be a string') }).check(
  z.trim(),
  z.minLength(1, { message: 'Must not be blank', abort: true }),
  z.maxLength(L.nameChars, `Must be at most ${L.nameChars} characters`),
  z.meta({
    description: `Shown in the broadcasts list (1 to ${L.nameChars} characters)`,
    examples: ['November news'],
  }),
);

const Audience = z
  .union([
    z.strictObject({
      segment_id: id(
        'segment_id',
        'A segment of yours: its members when the broadcast starts. Depends on stored data: any other id is a 422 `reference`',
      ),
    }),
    z.strictObject({
      topic_id: id(
        'topic_id',
        'A topic of yours: its subscribers when the broadcast starts. Depends on stored data: any other id is a 422 `reference`',
      ),
    }),
    z.strictObject({
      all_subscribed: z.literal(true).check(z.meta({ description: 'Every contact subscribed to marketing mail' })),
    }),
  ])
  .check(
    z.meta({
      id: 'BroadcastAudience',
      description:
        'Who it goes to, read once when the broadcast starts (the snapshot): a segment, a topic, or all subscribed ' +
        'contacts. Suppressed, unsubscribed and topic-opted-out contacts are skipped with their reasons, as for every send.',
    }),
  );

const Variant = z
  .strictObject({
    template_id: id(
      'template_id',
      'A system template (1–8) or a live template of yours. Depends on stored data: any other id is a 422 `reference`',
    ),
    subject: z.optional(
      z.string({ error: 'Must be a string' }).check(
        z.trim(),
        z.minLength(1, 'Must not be blank'),
        z.maxLength(L.subjectChars, `Must be at most ${L.subjectChars} characters`),
        z.meta({
          description: `A subject of the broadcast's own in place of the template's (at most ${L.subjectChars} characters; the template's variables apply)`,
        }),
      ),
    ),
  })
  .check(z.meta({ id: 'BroadcastVariant' }));

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const Schedule = z
  .discriminatedUnion('mode', [
    z.strictObject({ mode: z.literal('now') }),
    z.strictObject({
      mode: z.literal('at'),
      send_at: z.iso.datetime({ offset: true, error: 'Must be an RFC 3339 date-time' }).check(
        z.maxLength(40, 'Must be an RFC 3339 date-time'),
        z.meta({
          description: `When it starts: not in the past (422 \`min\`) and at most ${L.scheduleAheadDays} days ahead (422 \`max\`)`,
        }),
      ),
    }),
    z.strictObject({
      mode: z.literal('local_time'),
      date: z.string({ error: 'Must be a date (YYYY-MM-DD)' }).check(
        z.maxLength(10, 'Must be a date (YYYY-MM-DD)'),
        z.regex(DATE, 'Must be a date (YYYY-MM-DD)'),
        z.meta({
          description: `The day, in each contact's own time zone: a date that exists (422 \`format\`), today or later in the latest zone, UTC−12 (422 \`min\`), at most ${L.scheduleAheadDays} days ahead (422 \`max\`)`,
        }),
      ),
      time: z
        .string({ error: 'Must be a time (HH:MM)' })
        .check(
          z.maxLength(5, 'Must be a time (HH:MM, 24-hour)'),
          z.regex(TIME, 'Must be a time (HH:MM, 24-hour)'),
          z.meta({ description: "The time of day in each contact's own zone" }),
        ),
    }),
  ])
  .check(
    z.meta({
      id: 'BroadcastSchedule',
      description:
        '`now`; `at` an instant; or `local_time`: each contact at `time` on `date` in its own zone (contact → your ' +
        'settings → UTC), the send window and quiet hours applying after. The audience is read when `date` begins in ' +
        "UTC+14; a broadcast scheduled after a zone's `time` passed sends that zone's contacts at the next day's.",
    }),
  );

/** The definition's fields: one instance for request bodies, one for answers (their defaults differ in the document). */
const definitionOf = (schemaId: string) =>
  z
    .strictObject({
      audience: Audience,
      category: z.enum(['marketing', 'transactional'], { error: 'Must be marketing or transactional' }).check(
        z.meta({
          description:
            'marketing (unsubscribed contacts skipped, the RFC 8058 footer) or transactional: only to a segment and under no topic (422 `read_only` otherwise)',
        }),
      ),
      topic_id: z._default(
        z.nullable(
          id(
            'topic_id',
            'The topic the e-mail is sent under (marketing only). A topic audience implies it: null or that same topic (422 `format` otherwise). Depends on stored data: a topic the client does not have is a 422 `reference`',
          ),
        ),
        null,
      ),
      variants: z
        .array(Variant)
        .check(
          z.minLength(1, 'Name a template'),
          z.maxLength(L.variants, `At most ${L.variants} variant`),
          z.meta({ description: `The e-mail: exactly ${L.variants} variant (A/B tests are not offered yet)` }),
        ),
      schedule: Schedule,
      priority_score: z._default(
        z.int({ error: 'Must be an integer' }).check(
          z.gte(L.priority.min, `Must be at least ${L.priority.min}`),
          z.lte(L.priority.max, `Must be at most ${L.priority.max}`),
          z.meta({
            description: `Its priority against a contact's daily cap (default ${L.priority.default}; the workflows' is 50, so lifecycle mail wins)`,
          }),
        ),
        L.priority.default,
      ),
    })
    .check(z.meta({ id: schemaId }));

export const BroadcastDefinitionSchema = definitionOf('BroadcastDefinition');

export type BroadcastDefinition = z.output<typeof BroadcastDefinitionSchema>;

export const BroadcastIdParams = z.object({ id: plainIdParam(9, 'The broadcast id') });

/** POST /client/broadcasts: a draft. */
export const BroadcastCreateBody = z
  .strictObject({ name, definition: BroadcastDefinitionSchema })
  .check(z.meta({ id: 'BroadcastCreate' }));
export type BroadcastCreateBody = z.output<typeof BroadcastCreateBody>;

/** POST /client/broadcasts/{id}/schedule. */
export const BroadcastScheduleBody = z
  .strictObject({
    draft_version: z
      .int({ error: 'Must be an integer' })
      .check(
        z.gte(1, 'Must be at least 1'),
        z.meta({ description: 'The `draft_version` read: a draft saved since is 409 `state` (nothing scheduled)' }),
      ),
  })
  .check(z.meta({ id: 'BroadcastScheduleRequest' }));

const Totals = z
  .object({
    sent: z.int(),
    delivered: z.int(),
    human_opens: z.int(),
    human_clicks: z.int(),
    machine_opens: z.int(),
    machine_clicks: z.int(),
    bounced: z.int(),
    complained: z.int(),
    unsubscribed: z.int(),
    skipped: z.int(),
    failed: z.int(),
    deferred: z.int(),
  })
  .check(
    z.meta({
      id: 'BroadcastTotals',
      description:
        "Counted from its recipients and their e-mails, following them by about 10 seconds: each e-mail's first " +
        'open and click by a person (human_*); Apple Mail Privacy Protection, link scanners and other machines apart (machine_*)',
    }),
  );

export const BroadcastView = z
  .object({
    id: z.int(),
    name: z.string(),
    status: z.enum(BROADCAST_STATUSES),
    draft_version: z.int(),
    definition: definitionOf('BroadcastDefinitionView'),
    scheduled_at: z.nullable(z.string()),
    started_at: z.nullable(z.string()),
    paused_at: z.nullable(z.string()),
    cancelled_at: z.nullable(z.string()),
    completed_at: z.nullable(z.string()),
    recipients: z
      .nullable(z.int())
      .check(z.meta({ description: 'Recipients written by the snapshot; null until it has finished' })),
    totals: Totals,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .check(z.meta({ id: 'Broadcast' }));
export type BroadcastView = z.output<typeof BroadcastView>;

export const BroadcastList = z.object({ broadcasts: z.array(BroadcastView) });

const draftVersion = z
  .int({ error: 'Must be an integer' })
  .check(
    z.gte(1, 'Must be at least 1'),
    z.meta({ description: 'The `draft_version` read: a draft saved since is 409 `state` (nothing written)' }),
  );

/** PUT /client/broadcasts/{id}: a draft's name and definition replaced whole. */
export const BroadcastReplaceBody = z
  .strictObject({ name, definition: BroadcastDefinitionSchema, draft_version: draftVersion })
  .check(z.meta({ id: 'BroadcastReplace' }));
export type BroadcastReplaceBody = z.output<typeof BroadcastReplaceBody>;

export const DeletedBroadcast = z.object({ id: z.int(), deleted: z.literal(true) });

/** POST /client/broadcasts/{id}/test. */
export const BroadcastTestBody = z
  .strictObject({
    emails: z.array(Email).check(
      z.minLength(1, 'Name at least one address'),
      z.maxLength(L.testUsers, `At most ${L.testUsers} addresses`),
      z.meta({
        description:
          `1 to ${L.testUsers} addresses, each of one of your dashboard users (any other is 422 \`reference\` at ` +
          'its place: a test goes only to your own team). Depends on stored data: your users',
      }),
    ),
  })
  .check(z.meta({ id: 'BroadcastTestRequest' }));
export type BroadcastTestBody = z.output<typeof BroadcastTestBody>;

export const BroadcastTestView = z
  .object({
    sent: z.array(
      z.object({
        email: z.string(),
        variant: z.int().check(z.meta({ description: 'The variant sent (0 is the first)' })),
        subject: z.string().check(z.meta({ description: 'As sent: the rendered subject after "[Test] "' })),
      }),
    ),
  })
  .check(
    z.meta({
      id: 'BroadcastTest',
      description:
        'One e-mail per address and variant, sent now from your sender as the broadcast would be; not counted in its results',
    }),
  );
export type BroadcastTestView = z.output<typeof BroadcastTestView>;
