import { BROADCAST_AB_METRICS, BROADCAST_LIMITS as L, BROADCAST_STATUSES } from '../../public/broadcast-rules.js';
import { BROADCAST_RECIPIENT_STATUSES } from '../../public/broadcast-rules.js';
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

const bounded = (what: string, bounds: { min: number; max: number }, description: string) =>
  z
    .int({ error: `${what} must be an integer` })
    .check(
      z.gte(bounds.min, `Must be at least ${bounds.min}`),
      z.lte(bounds.max, `Must be at most ${bounds.max}`),
      z.meta({ description }),
    );

const Ab = z
  .strictObject({
    test_percent: bounded(
      'test_percent',
      L.abTestPercent,
      `The share of the audience the variants are tested on, in percent (${L.abTestPercent.min}–${L.abTestPercent.max}), split evenly among them by a hash of the broadcast and the contact; the rest wait for the winner`,
    ),
    metric: z.enum(BROADCAST_AB_METRICS, { error: 'Must be human_opens, human_clicks or conversions' }).check(
      z.meta({
        description:
          "What wins: each variant's e-mails first opened (human_opens) or clicked (human_clicks) by a person, or its recipients' conversions (conversions: needs `conversion`, else 422 `required` at `definition.conversion`), per e-mail delivered. Apple Mail Privacy Protection, link scanners and other machines do not count. A tie, or nothing counted, goes to the first variant",
      }),
    ),
    decide_after_hours: bounded(
      'decide_after_hours',
      L.abDecideAfterHours,
      `Hours after the broadcast starts when the winner is chosen (${L.abDecideAfterHours.min}–${L.abDecideAfterHours.max}); then the rest of the audience gets the winner's template and subject`,
    ),
  })
  .check(
    z.meta({
      id: 'BroadcastAb',
      description: `An A/B test: required with 2 to ${L.variants} variants (422 \`required\` at \`ab\` without it), refused with one (422 \`format\`)`,
    }),
  );

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

/** An event type as POST /client/events takes it (a slug), kept here so a broadcast route bundles no journey schema. */
const EventType = z
  .string({ error: 'event must be an event type (string)' })
  .check(
    z.maxLength(100, 'Must be at most 100 characters'),
    z.regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, 'Must be an event type slug (letters, digits, _ . : -)'),
  );

const Conversion = z
  .strictObject({
    event: EventType.check(
      z.meta({ description: 'The event type that counts as a conversion (as POST /client/events takes it)' }),
    ),
    window_days: z.int({ error: 'window_days must be an integer' }).check(
      z.gte(L.conversionWindowDays.min, `Must be at least ${L.conversionWindowDays.min}`),
      z.lte(L.conversionWindowDays.max, `Must be at most ${L.conversionWindowDays.max}`),
      z.meta({
        description: `Days after a recipient's e-mail was sent within which its event counts (${L.conversionWindowDays.min}–${L.conversionWindowDays.max})`,
      }),
    ),
  })
  .check(
    z.meta({
      id: 'BroadcastConversion',
      description:
        "What counts as a conversion: a recipient's first event of this type within `window_days` of its e-mail " +
        "being sent converts it (once; `converted_at` on its recipient row, `conversions` in the totals and its variant's)",
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
      variants: z.array(Variant).check(
        z.minLength(1, 'Name a template'),
        z.maxLength(L.variants, `At most ${L.variants} variants`),
        z.meta({
          description: `The e-mail: one variant, or 2 to ${L.variants} tested against each other (then \`ab\` is required: 422 \`required\` without it; with one variant \`ab\` is 422 \`format\`)`,
        }),
      ),
      ab: z.optional(Ab),
      schedule: Schedule,
      conversion: z.optional(Conversion),
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
    conversions: z
      .int()
      .check(z.meta({ description: "Recipients who converted (the definition's `conversion`; 0 without one)" })),
  })
  .check(
    z.meta({
      id: 'BroadcastTotals',
      description:
        "Counted from its recipients and their e-mails, following them by about 10 seconds: each e-mail's first " +
        'open and click by a person (human_*); Apple Mail Privacy Protection, link scanners and other machines apart (machine_*)',
    }),
  );

const AbVariantView = z
  .object({
    variant: z.int().check(z.meta({ description: 'The variant (0 is the first in `definition.variants`)' })),
    template_id: z.int(),
    subject: z.nullable(z.string()).check(z.meta({ description: "Its own subject; null: the template's" })),
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
    human_open_rate: z.number().check(z.meta({ description: 'human_opens per delivered (4 decimals; 0 before any)' })),
    human_click_rate: z
      .number()
      .check(z.meta({ description: 'human_clicks per delivered (4 decimals; 0 before any)' })),
    conversions: z.int(),
    conversion_rate: z.number().check(z.meta({ description: 'conversions per delivered (4 decimals; 0 before any)' })),
  })
  .check(
    z.meta({
      id: 'BroadcastAbVariant',
      description:
        "One variant's results among the test share (the holdouts sent the winner count in `totals` only), counted as the totals are",
    }),
  );

const AbView = z
  .object({
    test_percent: z.int(),
    metric: z.enum(BROADCAST_AB_METRICS),
    decide_after_hours: z.int(),
    winner: z.nullable(z.int()).check(
      z.meta({
        description:
          'The winning variant, chosen once at the start + decide_after_hours: the highest metric per delivered, a tie or no data the first. null until then',
      }),
    ),
    decided_at: z.nullable(z.string()),
    decided_rates: z
      .nullable(z.array(z.number()))
      .check(z.meta({ description: "Each variant's metric per delivered when the winner was chosen" })),
    variants: z.array(AbVariantView),
  })
  .check(
    z.meta({ id: 'BroadcastAbResult', description: 'An A/B test and its results; null on a broadcast without one' }),
  );

/** A broadcast's answer fields (the list's and, with its links, the detail's). */
const broadcastViewShape = {
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
  kind: z
    .enum(['broadcast', 'resend'])
    .check(
      z.meta({ description: "`resend`: sent to its parent's recipients who never opened it (POST …/{id}/resend)" }),
    ),
  parent_id: z.nullable(z.int()).check(z.meta({ description: "A resend's parent broadcast; null otherwise" })),
  resend_id: z
    .nullable(z.int())
    .check(z.meta({ description: 'Its resend to non-openers once made (at most one); null until then' })),
  recipients: z
    .nullable(z.int())
    .check(z.meta({ description: 'Recipients written by the snapshot; null until it has finished' })),
  totals: Totals,
  ab: z.nullable(AbView),
  created_at: z.string(),
  updated_at: z.string(),
};

export const BroadcastView = z.object(broadcastViewShape).check(z.meta({ id: 'Broadcast' }));
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

export const BroadcastLink = z
  .object({
    url: z.string().check(
      z.meta({
        description:
          'The link as clicked, its #fragment dropped; your unsubscribe and view-in-browser pages as one link each (`…/u/{token}`, `…/v/{token}`)',
      }),
    ),
    human_clicks: z.int().check(z.meta({ description: 'Clicks by people: every click, not only the first' })),
    machine_clicks: z
      .int()
      .check(z.meta({ description: 'Clicks by machines: link scanners, security gateways, privacy proxies' })),
  })
  .check(z.meta({ id: 'BroadcastLink' }));

/** GET /client/broadcasts/{id}: the broadcast, its totals, and its links. */
export const BroadcastDetail = z
  .object({
    ...broadcastViewShape,
    links: z.array(BroadcastLink).check(
      z.meta({
        description: `Its e-mails' links by clicks by people, most first (then by machines), at most ${L.linksShown}; counted from the click notifications, about 10 seconds behind`,
      }),
    ),
    links_total: z
      .int()
      .check(z.meta({ description: 'Links clicked at least once (all of them, beyond those listed)' })),
  })
  .check(z.meta({ id: 'BroadcastDetail' }));
export type BroadcastDetail = z.output<typeof BroadcastDetail>;

const recipientStatus = z.enum(BROADCAST_RECIPIENT_STATUSES, {
  error: `Must be one of ${BROADCAST_RECIPIENT_STATUSES.join(', ')}`,
});

/** GET /client/broadcasts/{id}/recipients (and its CSV export). */
export const BroadcastRecipientsQuery = z.object({
  status: z.optional(
    recipientStatus.check(
      z.meta({
        description:
          'Only recipients at this status. A page then may hold fewer than `per_page` (even none) while `next_cursor` goes on',
      }),
    ),
  ),
  per_page: z._default(
    z.coerce
      .number()
      .check(
        z.int('Must be an integer'),
        z.gte(1, 'Must be at least 1'),
        z.lte(L.recipientsPerPage, `Must be at most ${L.recipientsPerPage}`),
      ),
    50,
  ),
  cursor: z.optional(
    z
      .string()
      .check(
        z.maxLength(300, 'Not a cursor of this list'),
        z.meta({ description: '`next_cursor` of the previous page, unchanged; anything else is a 422 `format`' }),
      ),
  ),
});
export type BroadcastRecipientsQuery = z.output<typeof BroadcastRecipientsQuery>;

/** GET …/recipients/export: the same filter, pages of its own size. */
export const BroadcastRecipientsExportQuery = z.object({
  status: BroadcastRecipientsQuery.shape.status,
  cursor: BroadcastRecipientsQuery.shape.cursor,
});
export type BroadcastRecipientsExportQuery = z.output<typeof BroadcastRecipientsExportQuery>;

export const BroadcastRecipient = z
  .object({
    contact_id: z.int(),
    email: z
      .nullable(z.string())
      .check(z.meta({ description: 'The contact’s address; null once the contact was erased' })),
    execution_id: z.int(),
    sent_email_id: z
      .nullable(z.string())
      .check(z.meta({ description: 'Its e-mail (GET /client/sent-emails/{id}); null if none was sent' })),
    variant: z
      .nullable(z.int())
      .check(z.meta({ description: 'The variant it got (0 is the first); null for one variant' })),
    status: recipientStatus.check(
      z.meta({
        description:
          'queued, sent, delivered, opened, clicked (by a person), unsubscribed, bounced, complained; or failed, skipped, cancelled, retried (a newer attempt follows)',
      }),
    ),
    reason: z.nullable(z.string()).check(z.meta({ description: 'Why it was skipped, cancelled or failed' })),
    sent_at: z.nullable(z.string()).check(z.meta({ description: 'When its e-mail was sent; null if none was' })),
    human_opened: z.boolean().check(z.meta({ description: 'A person opened it (machine opens never count)' })),
    human_clicked: z.boolean().check(z.meta({ description: 'A person clicked a link in it' })),
    converted_at: z.nullable(z.string()).check(z.meta({ description: 'When its conversion event came; null if none' })),
  })
  .check(z.meta({ id: 'BroadcastRecipient' }));
export type BroadcastRecipient = z.output<typeof BroadcastRecipient>;

export const BroadcastRecipientList = z
  .object({
    recipients: z.array(BroadcastRecipient),
    next_cursor: z
      .nullable(z.string())
      .check(z.meta({ description: 'Pass as `cursor` for the next page; null on the last page' })),
  })
  .check(z.meta({ id: 'BroadcastRecipientList' }));
export type BroadcastRecipientList = z.output<typeof BroadcastRecipientList>;

/** POST /client/broadcasts/{id}/resend. */
export const BroadcastResendBody = z
  .strictObject({
    subject: z.string({ error: (i) => (i.input === undefined ? 'subject is required' : 'Must be a string') }).check(
      z.trim(),
      z.minLength(1, { message: 'Must not be blank', abort: true }),
      z.maxLength(L.subjectChars, `Must be at most ${L.subjectChars} characters`),
      z.meta({
        description: `The resend's subject in place of the template's (1 to ${L.subjectChars} characters; the template's variables apply)`,
        examples: ['In case you missed it: <%= it.contact.first_name %>, our November news'],
      }),
    ),
    after_hours: z
      .int({ error: (i) => (i.input === undefined ? 'after_hours is required' : 'Must be an integer') })
      .check(
        z.gte(L.resendAfterHours.min, `Must be at least ${L.resendAfterHours.min}`),
        z.lte(L.resendAfterHours.max, `Must be at most ${L.resendAfterHours.max}`),
        z.meta({
          description: `Hours after the broadcast's start (${L.resendAfterHours.min} to ${L.resendAfterHours.max}) the resend starts; at once when that has passed. Its audience is read then: the recipients whose e-mail was sent and opened by no person by that time (Apple Mail Privacy Protection and link scanners do not count as opens)`,
        }),
      ),
  })
  .check(z.meta({ id: 'BroadcastResendRequest' }));
export type BroadcastResendBody = z.output<typeof BroadcastResendBody>;

/** POST /client/broadcasts/{id}/retry-failed: the job's start. */
export const BroadcastRetryView = z
  .object({
    broadcast_id: z.int(),
    retrying: z.int().check(
      z.meta({
        description:
          'Failed recipients queued to be sent again: failed as counted (about 10 seconds behind the sends) less those ' +
          'retried before. Each is sent once more; one retried already (and not failed again) is not',
      }),
    ),
  })
  .check(z.meta({ id: 'BroadcastRetryFailed' }));
export type BroadcastRetryView = z.output<typeof BroadcastRetryView>;
