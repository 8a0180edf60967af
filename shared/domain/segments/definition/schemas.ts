/**
 * The segment JSON a client writes (OpenAPI `SegmentDefinition` and its parts): the schema says each field's shape and
 * bound; validate-segment.ts adds what a schema cannot say (topics that exist, the client's event counters, the size),
 * and the descriptions here state those rules too, so the document is the whole promise. No transforms nor defaults:
 * a definition reads back exactly as it was written.
 *
 * The leaves on the contact's fields, custom fields, tags and topics are the journeys' own schemas (one component each
 * in the document), so a condition written for a journey reads the same in a segment.
 */
import * as z from '../../../validation/zod.js';
import { issueCondition } from '../../../validation/issue-items.js';
import { MAX_TIMESTAMP_LENGTH } from '../../../validation/string-bounds.js';
import { SEGMENT_LIMITS } from '../../../public/segment-rules.js';
import {
  ContactCondition,
  CustomFieldCondition,
  EventCondition,
  EventType,
  TagCondition,
  TopicCondition,
  integer,
} from '../../journeys/definition/schemas.js';
import {
  ENGAGEMENT_OPS,
  EVENT_COUNT_OPS,
  SEGMENT_DATE_FIELDS,
  SEGMENT_DATE_OPS,
  SUBSCRIPTION_OPS,
  type SegmentCondition,
  type SegmentDefinition,
  type SegmentGroup,
  type SegmentIssue,
} from './types.js';

const L = SEGMENT_LIMITS;
const DAYS = `${L.withinDays.min} to ${L.withinDays.max}`;

const withinDays = (field: string) => integer(field, L.withinDays, ' days');

const SubscriptionCondition = z
  .strictObject({
    on: z.literal('subscription'),
    op: z.enum(SUBSCRIPTION_OPS, { error: `Must be one of ${SUBSCRIPTION_OPS.join(', ')}` }),
  })
  .check(
    z.meta({
      id: 'SegmentSubscriptionCondition',
      description:
        'Whether the contact gets marketing mail: subscribed, or unsubscribed (for any reason, suppressed ones included); suppressed: the address takes no mail of any kind (a hard bounce, a complaint, repeated transient bounces, or imported as suppressed)',
    }),
  );

const Instant = z.iso
  .datetime({ offset: true, message: 'Must be an RFC 3339 timestamp, e.g. 2026-01-31T09:00:00Z' })
  .check(z.maxLength(MAX_TIMESTAMP_LENGTH, `Must be at most ${MAX_TIMESTAMP_LENGTH} characters`));

/** A date condition's `value`: an instant for before / after, a number of days for the windows, none otherwise. */
const dateRule = z.superRefine((condition: { op: (typeof SEGMENT_DATE_OPS)[number]; value?: unknown }, ctx) => {
  const { op, value } = condition;
  const issue = (message: string, condition: 'required' | 'format' | 'min' | 'max') =>
    ctx.addIssue({ code: 'custom', message, path: ['value'], params: issueCondition(condition), input: value });
  if (op === 'exists' || op === 'not_exists') {
    if (value !== undefined) issue(`Must be left out: ${op} takes no value`, 'format');
  } else if (value === undefined) {
    issue(`value is required with ${op}`, 'required');
  } else if (op === 'before' || op === 'after') {
    if (typeof value !== 'string') issue(`Must be an RFC 3339 timestamp with ${op}`, 'format');
  } else if (typeof value !== 'number') {
    issue(`Must be a whole number of days (${DAYS}) with ${op}`, 'format');
  } else if (value < L.withinDays.min) {
    issue(`Must be at least ${L.withinDays.min} days`, 'min');
  } else if (value > L.withinDays.max) {
    issue(`Must be at most ${L.withinDays.max} days`, 'max');
  }
});

const DateCondition = z
  .strictObject({
    on: z.literal('date'),
    field: z.enum(SEGMENT_DATE_FIELDS, { error: `Must be one of ${SEGMENT_DATE_FIELDS.join(', ')}` }),
    op: z.enum(SEGMENT_DATE_OPS, { error: `Must be one of ${SEGMENT_DATE_OPS.join(', ')}` }),
    value: z.optional(
      z
        .union([Instant, z.int()], {
          error: `Must be an RFC 3339 timestamp (before, after) or a whole number of days from ${DAYS} (within_days, not_within_days)`,
        })
        .check(
          z.meta({
            description: `before / after: an RFC 3339 timestamp; within_days / not_within_days: a whole number of days, ${DAYS}; exists / not_exists: none`,
          }),
        ),
    ),
  })
  .check(
    dateRule,
    z.meta({
      id: 'SegmentDateCondition',
      anyOf: [
        {
          properties: { op: { enum: ['exists', 'not_exists'] } },
          not: { properties: { value: {} }, required: ['value'] },
        },
        {
          properties: { op: { enum: ['before', 'after'] }, value: { type: 'string', maxLength: MAX_TIMESTAMP_LENGTH } },
          required: ['value'],
        },
        {
          properties: {
            op: { enum: ['within_days', 'not_within_days'] },
            value: { type: 'integer', minimum: L.withinDays.min, maximum: L.withinDays.max },
          },
          required: ['value'],
        },
      ],
      description:
        "One of the contact's timestamps (`last_email_opened_at` and `last_email_clicked_at` move on human opens and clicks only). before / after: strictly earlier / later than the instant. within_days: at most that many days (of 24 hours) ago, strictly: it stops holding the instant the timestamp is exactly that old; a timestamp in the future is within. not_within_days: the opposite, and it holds when the timestamp is absent (never happened). exists / not_exists: present or not. before, after and within_days need the timestamp",
    }),
  );

/** `at_least 0` always holds: refused, so a segment never silently means "everyone". */
const eventCountRule = z.superRefine((condition: { op: string; count: unknown }, ctx) => {
  if (condition.op === 'at_least' && condition.count === 0)
    ctx.addIssue({
      code: 'custom',
      message: 'Must be at least 1 with at_least (at least 0 always holds)',
      path: ['count'],
      params: issueCondition('min'),
      input: condition.count,
    });
});

const EventCountCondition = z
  .strictObject({
    on: z.literal('event_count'),
    event: EventType.check(z.meta({ description: 'The event type counted (as POST /client/events takes it)' })),
    conditions: z.optional(
      z.array(EventCondition, { error: 'Must be an array of event conditions' }).check(
        z.maxLength(L.eventConditions, `Must list at most ${L.eventConditions} conditions`),
        z.meta({
          description: `Conditions on the counted event's own values (at most ${L.eventConditions}): only events meeting all of them count`,
        }),
      ),
    ),
    op: z.enum(EVENT_COUNT_OPS, { error: `Must be one of ${EVENT_COUNT_OPS.join(', ')}` }),
    count: integer('count', L.eventCount).check(
      z.meta({
        description: `How many events, ${L.eventCount.min} to ${L.eventCount.max}; at_least takes at least 1 (422 \`min\`: at least 0 always holds)`,
      }),
    ),
    within_days: z.optional(
      withinDays('within_days').check(
        z.meta({
          description: `Count only the events of the last this many days (${DAYS}; each event by its own \`ts\`, leaving the window the instant it is exactly that old); absent: every event counted`,
        }),
      ),
    ),
  })
  .check(
    eventCountRule,
    z.meta({
      id: 'SegmentEventCountCondition',
      not: { properties: { op: { const: 'at_least' }, count: { const: 0 } }, required: ['op', 'count'] },
      description: `How many events of a type (meeting \`conditions\`) the contact sent: at least, at most or exactly \`count\`, ever or within the last \`within_days\`. Events are counted from the moment a segment of the client first reads that event type with those conditions (the same type and conditions in several segments are one counter); at most ${L.eventSpecsPerClient} distinct counters across the client's segments (422 \`max\`)`,
    }),
  );

/** An id of a journey or broadcast: at most 9 digits, as the paths take them. */
const sourceId = (field: string) =>
  integer(field, { min: 1, max: 999_999_999 }).check(
    z.meta({
      description: `The client's ${field === 'journey_id' ? 'journey (GET /client/journeys)' : 'broadcast (GET /client/broadcasts)'}. Depends on stored data: an id the client has no ${field === 'journey_id' ? 'journey' : 'broadcast'} under (another client's included) is a 422 \`reference\``,
    }),
  );

const EngagementSourceSchema = z
  .union(
    [
      z.strictObject({ journey_id: sourceId('journey_id') }),
      z.strictObject({ broadcast_id: sourceId('broadcast_id') }),
    ],
    { error: 'Must be {journey_id} or {broadcast_id}' },
  )
  .check(
    z.meta({
      id: 'SegmentEngagementSource',
      description:
        "The one journey (all of its e-mails) or broadcast whose e-mails the condition reads; a broadcast's resend is a broadcast of its own",
    }),
  );

/**
 * never_opened reads the all-time count and not_opened the source's e-mails ever sent, so a window would be a rule the
 * evaluator ignores; not_opened reads one source, never_opened all of them.
 */
const engagementRule = z.superRefine((condition: { op: string; within_days?: unknown; source?: unknown }, ctx) => {
  const issue = (path: string, message: string, kind: 'format' | 'required', input: unknown) =>
    ctx.addIssue({ code: 'custom', message, path: [path], params: issueCondition(kind), input });
  if ((condition.op === 'never_opened' || condition.op === 'not_opened') && condition.within_days !== undefined)
    issue(
      'within_days',
      condition.op === 'never_opened'
        ? 'Must be left out: never_opened reads every e-mail ever sent (use not_within_days on last_email_opened_at for a window)'
        : 'Must be left out: not_opened reads every e-mail of the source ever sent',
      'format',
      condition.within_days,
    );
  if (condition.op === 'never_opened' && condition.source !== undefined)
    issue(
      'source',
      'Must be left out: never_opened reads every e-mail (use not_opened for one source)',
      'format',
      condition.source,
    );
  if (condition.op === 'not_opened' && condition.source === undefined)
    issue('source', 'source is required with not_opened', 'required', undefined);
});

const EngagementCondition = z
  .strictObject({
    on: z.literal('engagement'),
    op: z.enum(ENGAGEMENT_OPS, { error: `Must be one of ${ENGAGEMENT_OPS.join(', ')}` }),
    within_days: z.optional(
      withinDays('within_days').check(
        z.meta({
          description: `human_opened / human_clicked: within the last this many days (${DAYS}); absent: ever. never_opened and not_opened take none (422 \`format\`)`,
        }),
      ),
    ),
    source: z.optional(EngagementSourceSchema),
  })
  .check(
    engagementRule,
    z.meta({
      id: 'SegmentEngagementCondition',
      allOf: [
        {
          not: {
            properties: { op: { enum: ['never_opened', 'not_opened'] }, within_days: {} },
            required: ['op', 'within_days'],
          },
        },
        { not: { properties: { op: { const: 'never_opened' }, source: {} }, required: ['op', 'source'] } },
        {
          anyOf: [
            { not: { properties: { op: { const: 'not_opened' } }, required: ['op'] } },
            { properties: { source: {} }, required: ['source'] },
          ],
        },
      ],
      description: `Human engagement (privacy-proxy and link-scanner opens and clicks never count; a click on an e-mail whose open was not seen counts as its open). Without \`source\`: any e-mail the contact was sent — human_opened / human_clicked ever (an e-mail opened / clicked by a person) or within the last \`within_days\` (by \`last_email_opened_at\` / \`last_email_clicked_at\`); never_opened: no e-mail ever opened by a person (\`total_emails_opened\` is 0; takes no \`source\`, 422 \`format\`). With \`source\` (one journey or broadcast of the client's, else 422 \`reference\`): human_opened / human_clicked: an e-mail of that source opened / clicked by a person, ever or within the last \`within_days\` (by the last such open / click); not_opened (\`source\` required, 422 \`required\`): an e-mail of the source was sent to the contact and a person opened none of them. Engagement with a source is kept from the first e-mail of it, whether or not a segment read it then. At most ${L.engagementSourcesPerClient} distinct sources across the client's segments (422 \`max\`)`,
    }),
  );

const CONDITION_KINDS = 'contact, custom_field, tag, topic, subscription, date, event_count or engagement';
export const SegmentConditionSchema = z
  .discriminatedUnion(
    'on',
    [
      ContactCondition,
      CustomFieldCondition,
      TagCondition,
      TopicCondition,
      SubscriptionCondition,
      DateCondition,
      EventCountCondition,
      EngagementCondition,
    ],
    { error: `Must be a condition: on one of ${CONDITION_KINDS}` },
  )
  .check(
    z.meta({
      id: 'SegmentCondition',
      description: `One test of a contact, told apart by \`on\` (${CONDITION_KINDS}). A condition whose input is missing (a custom field the contact lacks, a topic deleted since) does not hold, except neq, not_in, not_exists and not_within_days`,
    }),
  ) satisfies z.ZodMiniType<SegmentCondition, unknown>;

const Match = z
  .enum(['all', 'any'], { error: 'Must be all or any' })
  .check(z.meta({ description: 'all: every item must hold; any: at least one' }));

export const SegmentGroupSchema = z
  .strictObject({
    match: Match,
    conditions: z
      .array(SegmentConditionSchema, { error: 'Must be an array of conditions' })
      .check(
        z.minLength(1, 'Must list at least 1 condition'),
        z.maxLength(L.conditionsPerGroup, `Must list at most ${L.conditionsPerGroup} conditions`),
        z.meta({ description: `1 to ${L.conditionsPerGroup} conditions` }),
      ),
  })
  .check(
    z.meta({ id: 'SegmentGroup', description: "Conditions joined by the group's `match`" }),
  ) satisfies z.ZodMiniType<SegmentGroup, unknown>;

export const SegmentDefinitionSchema = z
  .strictObject({
    match: Match,
    groups: z
      .array(SegmentGroupSchema, { error: 'Must be an array of groups' })
      .check(
        z.minLength(1, 'Must list at least 1 group'),
        z.maxLength(L.groups, `Must list at most ${L.groups} groups`),
        z.meta({ description: `1 to ${L.groups} groups` }),
      ),
  })
  .check(
    z.meta({
      id: 'SegmentDefinition',
      description: `Which contacts are members: groups of conditions, two levels (${L.groups} groups of ${L.conditionsPerGroup} conditions at most), joined by \`match\`. At most ${L.definitionBytes} bytes as JSON; every topic, journey and broadcast named must be one of the client's (422 \`reference\`); at most ${L.eventSpecsPerClient} distinct event counters (event_count's type with its conditions) and ${L.engagementSourcesPerClient} distinct engagement sources across the client's segments (422 \`max\`)`,
    }),
  ) satisfies z.ZodMiniType<SegmentDefinition, unknown>;

const ISSUE_CONDITIONS = [
  'required',
  'type',
  'format',
  'min',
  'max',
  'enum',
  'reference',
] as const satisfies readonly SegmentIssue['condition'][];

/** One issue of a definition, in answers (a refused create or update, a preview). */
export const SegmentIssueSchema = z
  .object({
    path: z.string().check(
      z.meta({
        description:
          'Where in the definition, as a dotted JSON path (`groups.0.conditions.2.count`); empty: the whole definition',
      }),
    ),
    condition: z.enum(ISSUE_CONDITIONS).check(z.meta({ description: 'The error condition (ErrorItem `condition`)' })),
    error: z.string().check(z.meta({ description: 'What is wrong, for people' })),
  })
  .check(
    z.meta({ id: 'SegmentIssue', description: 'Something a segment definition must change to be saved.' }),
  ) satisfies z.ZodMiniType<SegmentIssue, unknown>;

export { ISSUE_CONDITIONS as SEGMENT_ISSUE_CONDITIONS };
