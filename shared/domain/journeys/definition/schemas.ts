/**
 * The journey JSON a client writes (OpenAPI `JourneyDefinition` and its parts): the schema says each field's shape and
 * bound; validate-journey.ts adds what a schema cannot say (ids unique, edges naming steps, reachability, cycles, the
 * split's sum, stored templates and topics) and the descriptions here state those rules too, so the document is the
 * whole promise. No transforms nor defaults: a definition reads back exactly as it was written, and the request's and
 * the answer's schemas are one.
 */
import * as z from '../../../validation/zod.js';
import { issueCondition } from '../../../validation/issue-items.js';
import { storableNumber } from '../../../validation/storable-value.js';
import { MAX_ZONE_NAME_LENGTH } from '../../../validation/string-bounds.js';
import { JOURNEY_LIMITS, SPLIT_WINNER_METRICS, STEP_ID_PATTERN } from '../../../public/journey-rules.js';
import { CUSTOMIZATION_RANGE, MAX_EXIT_EVENTS } from '../../../public/workflow-rules.js';
import { CUSTOM_FIELD_NAME } from '../../contacts/schemas.js';
import { resolveTimezone } from '../../time/timezones.js';
import { SEND_TIME_MODES, WORKFLOW_CATEGORIES } from '../../workflows/catalog.js';
import { SEND_TIME_MODE_DESCRIPTION } from '../../workflows/customization.js';
import { ANY_EVENT, UPGRADE_EVENT } from '../../workflows/goals.js';
import { CONTACT_CONDITION_FIELDS, type JourneyDefinition, type JourneyIssue } from './types.js';

const L = JOURNEY_LIMITS;

/** The message of a missing member, else of a wrong type. */
export const expected = (field: string, what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${field} is required` : `Must be ${what}`;

export const text = (field: string, max: number, description?: string) =>
  z
    .string({ error: expected(field, 'a string') })
    .check(
      z.minLength(1, { message: 'Must not be empty', abort: true }),
      z.maxLength(max, `Must be at most ${max} characters`),
      z.regex(/\S/, 'Must not be blank'),
      ...(description ? [z.meta({ description })] : []),
    );

export const integer = (field: string, { min, max }: { min: number; max: number }, unit = '') =>
  z
    .int({ error: expected(field, `an integer from ${min} to ${max}${unit}`) })
    .check(
      z.gte(min, { message: `Must be at least ${min}${unit}`, abort: true }),
      z.lte(max, `Must be at most ${max}${unit}`),
    );

/** Ids of templates and topics have at most 9 digits (as the paths take them): a bound the document states. */
const MAX_ID = 999_999_999;

const EVENT_SLUG = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

/** An event type as POST /client/events takes it (a slug; never `*`). */
export const EventType = z
  .string({ error: expected('event', 'an event type (string)') })
  .check(
    z.maxLength(100, 'Must be at most 100 characters'),
    z.regex(EVENT_SLUG, 'Must be an event type slug (letters, digits, _ . : -)'),
  );

/** An `exit_events` item: an event type slug or `*`, any event. */
const ExitEventType = z
  .string({ error: 'Must be an event type (string)' })
  .check(
    z.maxLength(100, 'Must be at most 100 characters'),
    z.regex(
      /^(\*|[A-Za-z0-9][A-Za-z0-9_.:-]*)$/,
      `Must be an event type slug (letters, digits, _ . : -) or ${ANY_EVENT}`,
    ),
  );

const STEP_ID_RULE = `a lower-case letter, then lower-case letters, digits or _ (at most ${L.stepIdChars} characters)`;

/** A step id at `field` (its own message when missing). */
const stepIdAt = (field: string) =>
  z
    .string({ error: expected(field, 'a step id (string)') })
    .check(
      z.maxLength(L.stepIdChars, { message: `Must be at most ${L.stepIdChars} characters`, abort: true }),
      z.regex(STEP_ID_PATTERN, `Must be a step id: ${STEP_ID_RULE}`),
    );

/** An edge: the next step's id, or null (the run ends there). The key is required, so every path says how it ends. */
const next = (key: string, field: string) =>
  z.nullable(stepIdAt(key)).check(
    z.meta({
      description: `${field}: the id of a step of this definition (422 \`reference\` otherwise), or null: the run ends here`,
    }),
  );

const PATH_SEGMENT = '[A-Za-z0-9_-]+';
/** Exported for the dashboard's hints; the schema holds the rule. */
export const PROPERTY_PATH_PATTERN = new RegExp(
  `^(?:(?:metadata|payload)(?:\\.${PATH_SEGMENT}){1,4}|${PATH_SEGMENT})$`,
);
const PROPERTY_PATH_MAX = 200;

export const PropertyPath = z.string({ error: expected('path', 'a property path (string)') }).check(
  z.maxLength(PROPERTY_PATH_MAX, `Must be at most ${PROPERTY_PATH_MAX} characters`),
  z.regex(
    PROPERTY_PATH_PATTERN,
    'Must be an event field (type, ts, action, feature, plan, amount, upgrade), metadata.<a>[.<b>…] or payload.<a>[.<b>…] (at most 4 names after the root), or a name of the event body',
  ),
  z.meta({
    description:
      "Where a value of the event is read: one of its fields (`type`, `ts`, `action`, `feature`, `plan`, `amount`, `upgrade`), `metadata.<a>[.<b>…]` or `payload.<a>[.<b>…]` (at most 4 names after the root; letters, digits, _ and -), or a bare name: a member of the event's body as it was sent (`payload.<name>`). A value that is not there is absent",
  }),
);

const VALUE_MAX_CHARS = 1000;
const VALUE_LIST_MAX = 50;
const Scalar = z.union(
  [
    z.string().check(z.maxLength(VALUE_MAX_CHARS, `Must be at most ${VALUE_MAX_CHARS} characters`)),
    storableNumber(),
    z.boolean(),
  ],
  { error: `Must be a string (at most ${VALUE_MAX_CHARS} characters), a number, a boolean or a list of them` },
);
export const ConditionValue = z
  .union(
    [
      Scalar,
      z
        .array(Scalar)
        .check(
          z.minLength(1, 'Must list at least 1 value'),
          z.maxLength(VALUE_LIST_MAX, `Must list at most ${VALUE_LIST_MAX} values`),
        ),
    ],
    { error: `Must be a string (at most ${VALUE_MAX_CHARS} characters), a number, a boolean or a list of them` },
  )
  .check(
    // Named: the three value conditions share one component (the document's validators compile it once).
    z.meta({
      id: 'JourneyConditionValue',
      description: `What the value is compared with: a string (at most ${VALUE_MAX_CHARS} characters), a number or a boolean; \`in\` and \`not_in\` take a list of 1 to ${VALUE_LIST_MAX} of them; \`exists\` and \`not_exists\` take none`,
    }),
  );

export const VALUE_OPS = [
  'eq',
  'neq',
  'in',
  'not_in',
  'gt',
  'gte',
  'lt',
  'lte',
  'contains',
  'exists',
  'not_exists',
] as const;
export const ValueOp = z.enum(VALUE_OPS, { error: `Must be one of ${VALUE_OPS.join(', ')}` }).check(
  z.meta({
    id: 'JourneyValueOp',
    description:
      'eq / neq: equal or not (strings exactly, case-sensitive; a number as a number, a numeric string read from the event or a custom field counting as its number; a timestamp field as an instant). in / not_in: equal to one of the list or to none. gt, gte, lt, lte: ordered (numbers as numbers, `ts`, `created_at` and `last_*_at` as instants, other strings by their characters; a value that cannot be ordered does not hold). contains: a substring of a string, an item of a list. exists / not_exists: present (not null) or not. neq and not_in hold on an absent value; the others but not_exists need one',
  }),
);

/** A value op's `value`: none for exists/not_exists, a list for in/not_in, one value for the rest. */
export const valueRule = z.superRefine((condition: { op: (typeof VALUE_OPS)[number]; value?: unknown }, ctx) => {
  const { op, value } = condition;
  const issue = (message: string, condition: 'required' | 'format') =>
    ctx.addIssue({ code: 'custom', message, path: ['value'], params: issueCondition(condition), input: value });
  if (op === 'exists' || op === 'not_exists') {
    if (value !== undefined) issue(`Must be left out: ${op} takes no value`, 'format');
  } else if (value === undefined) {
    issue(`value is required with ${op}`, 'required');
  } else if ((op === 'in' || op === 'not_in') !== Array.isArray(value)) {
    issue(
      op === 'in' || op === 'not_in'
        ? `Must be a list of values with ${op}`
        : `Must be one value with ${op}, not a list`,
      'format',
    );
  }
});

/** valueRule as JSON Schema, for the document (a value-less op takes none; in / not_in a list; the rest one value). */
const VALUE_RULE_SCHEMA = {
  anyOf: [
    { properties: { op: { enum: ['exists', 'not_exists'] } }, not: { properties: { value: {} }, required: ['value'] } },
    { properties: { op: { enum: ['in', 'not_in'] }, value: { type: 'array' } }, required: ['value'] },
    {
      properties: {
        op: { enum: VALUE_OPS.filter((op) => !['exists', 'not_exists', 'in', 'not_in'].includes(op)) },
        value: { not: { type: 'array' } },
      },
      required: ['value'],
    },
  ],
};

export const valueMembers = { op: ValueOp, value: z.optional(ConditionValue) };

export const EventCondition = z.strictObject({ on: z.literal('event'), path: PropertyPath, ...valueMembers }).check(
  valueRule,
  z.meta({
    id: 'JourneyEventCondition',
    ...VALUE_RULE_SCHEMA,
    description:
      "A value of the event: the trigger's (in the trigger and every step of the run), or the awaited one's (in a wait_for_event's conditions)",
  }),
);
export const ContactCondition = z
  .strictObject({
    on: z.literal('contact'),
    field: z.enum(CONTACT_CONDITION_FIELDS, { error: `Must be one of ${CONTACT_CONDITION_FIELDS.join(', ')}` }),
    ...valueMembers,
  })
  .check(
    valueRule,
    z.meta({
      id: 'JourneyContactCondition',
      ...VALUE_RULE_SCHEMA,
      description: "One of the contact's own fields, as it is when the condition is read",
    }),
  );
export const CustomFieldCondition = z
  .strictObject({
    on: z.literal('custom_field'),
    name: z
      .string({ error: expected('name', 'a custom field name (string)') })
      .check(
        z.maxLength(64, 'Custom field names start with a letter: letters, digits, _ (max 64)'),
        z.regex(CUSTOM_FIELD_NAME, 'Custom field names start with a letter: letters, digits, _ (max 64)'),
      ),
    ...valueMembers,
  })
  .check(
    valueRule,
    z.meta({
      id: 'JourneyCustomFieldCondition',
      ...VALUE_RULE_SCHEMA,
      description: "One of the contact's custom fields, by name",
    }),
  );

const TAG_MAX_CHARS = 100;
export const Tag = text('tag', TAG_MAX_CHARS);
export const TagCondition = z
  .strictObject({
    on: z.literal('tag'),
    op: z.enum(['has', 'has_not'], { error: 'Must be has or has_not' }),
    tag: Tag,
  })
  .check(
    z.meta({ id: 'JourneyTagCondition', description: 'Whether the contact carries the tag (exactly, case-sensitive)' }),
  );

export const TopicId = z
  .int({ error: expected('topic_id', 'a topic id (integer)') })
  .check(z.gte(1, { message: 'Must be a topic id', abort: true }), z.lte(MAX_ID, 'Must be a topic id'));
export const TopicCondition = z
  .strictObject({
    on: z.literal('topic'),
    topic_id: TopicId.check(
      z.meta({
        description:
          "A topic of the client's (GET /client/topics). Depends on stored data: any other id is a 422 `reference`",
      }),
    ),
    op: z.enum(['subscribed', 'unsubscribed'], { error: 'Must be subscribed or unsubscribed' }),
  })
  .check(
    z.meta({
      id: 'JourneyTopicCondition',
      description:
        "Whether the contact gets the topic's mail: its own choice, else the topic's default_subscribed; a contact that left all marketing mail is unsubscribed from every topic. A topic deleted since holds for neither op",
    }),
  );
const EngagementCondition = z
  .strictObject({
    on: z.literal('engagement'),
    send_step: stepIdAt('send_step').check(
      z.meta({
        description:
          'A `send` step of this definition that every path from `entry` to the step reading the condition passes (422 `reference` otherwise: it may not have run)',
      }),
    ),
    op: z.enum(['human_opened', 'human_clicked', 'neither'], {
      error: 'Must be human_opened, human_clicked or neither',
    }),
  })
  .check(
    z.meta({
      id: 'JourneyEngagementCondition',
      description:
        'The human engagement with the e-mail that send step sent in this run: opened or clicked by a person (privacy-proxy and link-scanner opens and clicks never count), or neither. An e-mail not sent (skipped) was neither opened nor clicked',
    }),
  );

export const SegmentId = z
  .int({ error: expected('segment_id', 'a segment id (integer)') })
  .check(z.gte(1, { message: 'Must be a segment id', abort: true }), z.lte(MAX_ID, 'Must be a segment id'));
const segmentIdOfClient = (what: string) =>
  SegmentId.check(
    z.meta({
      description: `${what} A segment of the client's (GET /client/segments). Depends on stored data: any other id is a 422 \`reference\``,
    }),
  );
export const SEGMENT_CONDITION_OPS = ['member', 'not_member'] as const;
const SegmentCondition = z
  .strictObject({
    on: z.literal('segment'),
    segment_id: segmentIdOfClient('The segment whose membership is read.'),
    op: z.enum(SEGMENT_CONDITION_OPS, { error: 'Must be member or not_member' }),
  })
  .check(
    z.meta({
      id: 'JourneySegmentCondition',
      description:
        "Whether the contact is in the segment (member) or not (not_member) when the run reaches the branch. Read by branch steps only: in a trigger's `conditions` or a wait_for_event's `conditions` it is a 422 `format` at its `on`. " +
        'Membership is what the segment engine last wrote for the contact: a change made within the last seconds (the contact updated, an event counted) may not be seen yet. ' +
        "A contact never evaluated is in no segment. A segment deleted after the journey went live is no one's: `member` never holds and `not_member` always does (republishing names it as a 422 `reference`)",
    }),
  );

const CONDITION_KINDS = 'event, contact, custom_field, tag, topic, engagement or segment';
export const JourneyConditionSchema = z
  .discriminatedUnion(
    'on',
    [
      EventCondition,
      ContactCondition,
      CustomFieldCondition,
      TagCondition,
      TopicCondition,
      EngagementCondition,
      SegmentCondition,
    ],
    { error: `Must be a condition: on one of ${CONDITION_KINDS}` },
  )
  .check(
    z.meta({
      id: 'JourneyCondition',
      description: `One test, told apart by \`on\` (${CONDITION_KINDS}). A condition whose input is missing (no contact, no engagement recorded) does not hold, except engagement \`neither\``,
    }),
  );

const conditions = (what: string) =>
  z
    .array(JourneyConditionSchema, { error: 'Must be an array of conditions' })
    .check(
      z.maxLength(L.conditions, `Must list at most ${L.conditions} conditions`),
      z.meta({ description: `${what}: all must hold (at most ${L.conditions})` }),
    );

const Reentry = z
  .discriminatedUnion(
    'mode',
    [
      z.strictObject({ mode: z.literal('once') }),
      z.strictObject({
        mode: z.literal('every_days'),
        days: integer('days', L.reentryDays, ' days'),
      }),
      z.strictObject({ mode: z.literal('always') }),
    ],
    { error: 'Must be a re-entry rule: mode once, every_days (with days) or always' },
  )
  .check(
    z.meta({
      id: 'JourneyReentry',
      description: `Whether a contact (per trigger-key value, when the trigger has a key) may start another run: once ever; again ${L.reentryDays.min}–${L.reentryDays.max} days after its last run started, once that run ended; or always, once its last run ended. A contact is in one run of a journey (per key value) at a time, and in at most ${L.runsPerContact} runs across journeys`,
    }),
  );

const SegmentTriggerSchema = z
  .strictObject({
    segment_id: segmentIdOfClient('The segment whose moves start runs.'),
    on: z.enum(['enter', 'leave'], { error: 'Must be enter or leave' }).check(
      z.meta({
        description:
          'enter: a run starts when the contact becomes a member; leave: when it stops being one. Only moves after the journey went live count (within the configuration cache, 30 s): contacts already in the segment, and those a new or redefined segment takes in by its backfill, start none',
      }),
    ),
  })
  .check(
    z.meta({
      id: 'JourneySegmentTrigger',
      description: `A segment trigger: each move of a contact into (or out of) the segment starts at most one run, under the re-entry rule. At most ${L.liveJourneysPerTrigger} live or paused journeys of a client listen to one segment and direction`,
    }),
  );

export const JourneyTriggerSchema = z
  .strictObject({
    event: z.optional(
      EventType.check(
        z.meta({
          description: `The event type that starts a run (any type the client sends, not \`${ANY_EVENT}\`). At most ${L.liveJourneysPerTrigger} live or paused journeys of a client listen to one event type. Exactly one of \`event\` and \`segment\` (422 \`required\` at \`trigger.event\` when neither, \`format\` at \`trigger.segment\` when both)`,
        }),
      ),
    ),
    segment: z.optional(SegmentTriggerSchema),
    conditions: z.optional(conditions('On the event and the contact, for a run to start')),
    or_when: z.optional(
      z.array(EventCondition, { error: 'Must be an array of event conditions' }).check(
        z.maxLength(L.conditions, `Must list at most ${L.conditions} conditions`),
        z.meta({
          description: `Also starts a run on an event of any type meeting all these event conditions (at most ${L.conditions}), as the system journey upgrade thanks starts on any event with \`upgrade: true\``,
        }),
      ),
    ),
    key: z.optional(
      PropertyPath.check(
        z.meta({
          description: `An event property: one run at a time per (contact, its value); a wait_for_event with match_key waits for an event with the same value. An event without it starts no run. The value is kept on the run up to ${L.keyValueChars} characters`,
        }),
      ),
    ),
    reentry: Reentry,
  })
  .check(
    z.meta({
      id: 'JourneyTrigger',
      description:
        'What starts a run of the journey for a contact: an event type, or a segment entered or left. A segment trigger takes no `key` and no `or_when` (422 `format`)',
      oneOf: [
        { properties: { event: true }, required: ['event'] },
        { properties: { segment: true }, required: ['segment'] },
      ],
      not: {
        anyOf: [
          { properties: { segment: true, key: true }, required: ['segment', 'key'] },
          { properties: { segment: true, or_when: true }, required: ['segment', 'or_when'] },
        ],
      },
    }),
  );

const stepBase = {
  id: stepIdAt('id').check(
    z.meta({
      description: `The step's id, chosen by the client: ${STEP_ID_RULE}; unique within the definition (422 \`unique\`)`,
    }),
  ),
  name: z.optional(text('name', L.nameChars, 'A label for people (the dashboard); not used when the journey runs')),
};

const SendTimeSchema = z
  .strictObject({
    mode: z
      .literal([SEND_TIME_MODES.immediate, SEND_TIME_MODES.preferredTime, SEND_TIME_MODES.optimal], {
        error: 'Must be 0 (immediate), 1 (preferred time) or 2 (optimal)',
      })
      .check(z.meta({ description: SEND_TIME_MODE_DESCRIPTION })),
    preferred_hour: z.optional(
      integer('preferred_hour', CUSTOMIZATION_RANGE.preferred_send_hour, ' (hour of the day)').check(
        z.meta({ description: "Modes 1 and 2: the hour of the day in the contact's time zone" }),
      ),
    ),
    preferred_minute: z.optional(
      integer('preferred_minute', CUSTOMIZATION_RANGE.preferred_send_minute, ' (minute of the hour)').check(
        z.meta({
          description: 'With preferred_hour (a minute alone is a 422 `required` on preferred_hour); default 0',
        }),
      ),
    ),
    slot: z.optional(
      z.enum(['morning', 'afternoon'], { error: 'Must be morning or afternoon' }).check(
        z.meta({
          description: "Without a preferred_hour: the client's morning (the default) or afternoon send time",
        }),
      ),
    ),
  })
  .check(
    z.refine((t) => t.preferred_minute === undefined || t.preferred_hour !== undefined, {
      message: 'preferred_hour is required with preferred_minute',
      path: ['preferred_hour'],
      params: issueCondition('required'),
    }),
    z.meta({
      id: 'JourneySendTime',
      description:
        "When the e-mail goes: after the client's send window, weekdays and quiet hours in the contact's time zone, as a workflow's",
      dependentRequired: { preferred_minute: ['preferred_hour'] },
    }),
  );

const SendStep = z
  .strictObject({
    ...stepBase,
    type: z.literal('send'),
    template_id: z.int({ error: expected('template_id', 'a template id (integer)') }).check(
      z.gte(1, { message: 'Must be a template id', abort: true }),
      z.lte(MAX_ID, 'Must be a template id'),
      z.meta({
        description:
          "A system template or a live template of the client's. Depends on stored data: any other id is a 422 `reference`",
      }),
    ),
    priority_score: z.optional(
      integer('priority_score', CUSTOMIZATION_RANGE.priority_score).check(
        z.meta({ description: "Which e-mail wins a contact's daily cap when several compete (default 50)" }),
      ),
    ),
    send_time: SendTimeSchema,
    next: next('next', 'After the e-mail is sent (or skipped)'),
  })
  .check(
    z.meta({
      id: 'JourneySendStep',
      description:
        "Sends one e-mail through the same path as a workflow's (daily cap, quotas, suppression, the journey's topic, the footer); the run moves on once it is sent or skipped",
    }),
  );

const WaitStep = z
  .strictObject({
    ...stepBase,
    type: z.literal('wait'),
    minutes: integer('minutes', L.waitMinutes, ' minutes (one year)'),
    next: next('next', 'After the wait'),
  })
  .check(
    z.meta({
      id: 'JourneyWaitStep',
      description: `Waits ${L.waitMinutes.min} to ${L.waitMinutes.max} minutes (a year)`,
    }),
  );

const WaitUntilStep = z
  .strictObject({
    ...stepBase,
    type: z.literal('wait_until'),
    time: z
      .string({ error: expected('time', 'a time of day HH:MM (string)') })
      .check(
        z.maxLength(5, 'Must be at most 5 characters'),
        z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Must be a time of day HH:MM (24-hour, 00:00 to 23:59)'),
      ),
    weekdays: z.optional(
      z
        .array(
          z
            .int({ error: 'Must be an ISO weekday: an integer from 1 (Monday) to 7 (Sunday)' })
            .check(
              z.gte(1, { message: 'Must be at least 1 (Monday)', abort: true }),
              z.lte(7, 'Must be at most 7 (Sunday)'),
            ),
          { error: 'Must be an array of ISO weekdays' },
        )
        .check(
          z.minLength(1, 'Must list at least 1 weekday'),
          z.maxLength(7, 'Must list at most 7 weekdays'),
          z.refine((days) => new Set(days).size === days.length, {
            message: 'Must not repeat a weekday',
            params: issueCondition('format'),
          }),
          z.meta({ uniqueItems: true, description: 'ISO weekdays (1 Monday … 7 Sunday) allowed; absent: any day' }),
        ),
    ),
    next: next('next', 'At that time'),
  })
  .check(
    z.meta({
      id: 'JourneyWaitUntilStep',
      description:
        "Waits until the next time the contact's clock (its time zone, else the client's, else UTC) shows `time` on an allowed weekday, strictly later than now. A time a clock change skips is taken at the first valid instant after it (02:30 on a spring-forward night: 03:00); a time shown twice, at the earlier",
    }),
  );

const WaitForEventStep = z
  .strictObject({
    ...stepBase,
    type: z.literal('wait_for_event'),
    event: EventType.check(z.meta({ description: `The event type awaited (not \`${ANY_EVENT}\`)` })),
    conditions: z.optional(conditions('On the awaited event (`on: event` reads it) and the contact')),
    match_key: z.boolean({ error: expected('match_key', 'a boolean') }).check(
      z.meta({
        description:
          "Only an event whose trigger-key property holds this run's value counts. true needs `trigger.key` (422 `required`)",
      }),
    ),
    timeout_minutes: integer('timeout_minutes', L.timeoutMinutes, ' minutes (90 days)'),
    on_event: next('on_event', 'When the event comes first'),
    on_timeout: next('on_timeout', 'When the timeout comes first'),
  })
  .check(
    z.meta({
      id: 'JourneyWaitForEventStep',
      description: `Waits for the contact's next event of a type (meeting its conditions) for ${L.timeoutMinutes.min} to ${L.timeoutMinutes.max} minutes; exactly one of the event and the timeout moves the run on. An event processed before the run reached the step does not count; an event that is also one of the journey's exit events exits it`,
    }),
  );

const BranchStep = z
  .strictObject({
    ...stepBase,
    type: z.literal('branch'),
    branches: z
      .array(
        z.strictObject({
          name: text('name', L.nameChars),
          conditions: conditions('For this branch').check(z.minLength(1, 'Must list at least 1 condition')),
          next: next('next', 'When this branch is taken'),
        }),
        { error: 'Must be an array of branches' },
      )
      .check(
        z.minLength(1, 'Must list at least 1 branch'),
        z.maxLength(L.branches, `Must list at most ${L.branches} branches`),
        z.meta({ description: `1 to ${L.branches}, tried in order: the first whose conditions all hold is taken` }),
      ),
    otherwise: next('otherwise', 'When no branch holds'),
  })
  .check(
    z.meta({
      id: 'JourneyBranchStep',
      description: 'Takes the first branch whose conditions all hold, else `otherwise`',
    }),
  );

const SplitWinner = z
  .strictObject({
    metric: z.enum(SPLIT_WINNER_METRICS, { error: `Must be one of ${SPLIT_WINNER_METRICS.join(', ')}` }).check(
      z.meta({
        description:
          "The rate compared, per e-mail the arm's runs were sent: `human_opens` (e-mails opened by a person, machines never count), `human_clicks`, or `conversions` (an exit event within the journey's conversion window; needs `settings.exit_events`)",
      }),
    ),
    min_sends_per_arm: integer('min_sends_per_arm', L.winnerMinSends).check(
      z.meta({
        description: `E-mails each arm's runs must have been sent (${L.winnerMinSends.min} to ${L.winnerMinSends.max}) before a winner is chosen`,
      }),
    ),
    min_hours: z.optional(
      integer('min_hours', L.winnerMinHours, ' hours').check(
        z.meta({
          description: `Hours (${L.winnerMinHours.min} to ${L.winnerMinHours.max}; default 0) from the split's first run before a winner is chosen, so opens and clicks have time to come in`,
        }),
      ),
    ),
  })
  .check(
    z.meta({
      id: 'JourneySplitWinner',
      description:
        "An automatic winner: when every arm's runs were sent at least `min_sends_per_arm` e-mails and `min_hours` have passed since the split's first run, the arm with the highest rate (metric per e-mail sent) wins — on a tie, the arm listed first. Decided once and never changed: checked each time the split's counters move (a run taking an arm, a send, an open, a click, a conversion), so within about a minute of the fact that completes the rule. Every arm must lead to a send step (422 `graph`)",
    }),
  );

const SplitStep = z
  .strictObject({
    ...stepBase,
    type: z.literal('split'),
    arms: z
      .array(
        z.strictObject({
          name: text('name', L.nameChars),
          percent: z.number({ error: expected('percent', 'a number from 0.01 to 100') }).check(
            z.gt(0, { message: 'Must be more than 0', abort: true }),
            z.lte(100, 'Must be at most 100'),
            z.refine((p) => Math.abs(p * 100 - Math.round(p * 100)) < 1e-6, {
              message: 'Must have at most 2 decimals',
              params: issueCondition('format'),
            }),
          ),
          next: next('next', 'For the runs of this arm'),
        }),
        { error: 'Must be an array of arms' },
      )
      .check(
        z.minLength(L.armsMin, `Must list at least ${L.armsMin} arms`),
        z.maxLength(L.armsMax, `Must list at most ${L.armsMax} arms`),
        z.meta({
          description: `${L.armsMin} to ${L.armsMax} arms whose percentages (more than 0, at most 2 decimals) add up to 100 (422 \`graph\` otherwise)`,
        }),
      ),
    winner: z.optional(SplitWinner),
  })
  .check(
    z.meta({
      id: 'JourneySplitStep',
      description:
        "Sends each run down one arm by its share: a hash of the run's id and the step's id picks it, so a run always takes the same arm. With `winner`, once decided, every run reaching the split takes the winning arm (a run that already passed it keeps its arm)",
    }),
  );

const PERSON_FIELD_MAX = { first_name: 100, last_name: 100, company: 200, phone: 50 } as const;
const clearable = (schema: z.ZodMiniType<string>) => z.optional(z.nullable(schema));
const ContactSet = z
  .strictObject({
    first_name: clearable(text('first_name', PERSON_FIELD_MAX.first_name)),
    last_name: clearable(text('last_name', PERSON_FIELD_MAX.last_name)),
    company: clearable(text('company', PERSON_FIELD_MAX.company)),
    phone: clearable(text('phone', PERSON_FIELD_MAX.phone)),
    timezone: clearable(
      z.string({ error: expected('timezone', 'a time zone name (string)') }).check(
        z.maxLength(MAX_ZONE_NAME_LENGTH, `Must be at most ${MAX_ZONE_NAME_LENGTH} characters`),
        z.refine((zone) => resolveTimezone(zone) === zone, {
          message: 'Must be an IANA time zone name such as Europe/Paris',
          params: issueCondition('format'),
        }),
        z.meta({ description: 'An IANA time zone name such as Europe/Paris' }),
      ),
    ),
  })
  .check(z.meta({ description: "The contact's fields to set; null clears one" }));

const CUSTOM_VALUE_MAX_CHARS = 1000;
const MAX_SET_CUSTOM = 50;
const MAX_TAG_CHANGES = 20;
const tagList = (what: string) =>
  z
    .array(Tag, { error: 'Must be an array of tags' })
    .check(
      z.maxLength(MAX_TAG_CHANGES, `Must list at most ${MAX_TAG_CHANGES} tags`),
      z.meta({ description: `${what} (at most ${MAX_TAG_CHANGES}, each 1 to ${TAG_MAX_CHARS} characters)` }),
    );

const UpdateContactStep = z
  .strictObject({
    ...stepBase,
    type: z.literal('update_contact'),
    set: z.optional(ContactSet),
    set_custom: z.optional(
      z
        .record(
          z
            .string()
            .check(
              z.maxLength(64, 'Custom field names start with a letter: letters, digits, _ (max 64)'),
              z.regex(CUSTOM_FIELD_NAME, 'Custom field names start with a letter: letters, digits, _ (max 64)'),
            ),
          z.union([z.string().check(z.maxLength(CUSTOM_VALUE_MAX_CHARS)), storableNumber(), z.boolean(), z.null()], {
            error: `Must be a string (at most ${CUSTOM_VALUE_MAX_CHARS} characters), a number, a boolean or null`,
          }),
        )
        .check(
          z.refine((o) => Object.keys(o).length <= MAX_SET_CUSTOM, {
            message: `At most ${MAX_SET_CUSTOM} custom fields`,
            params: issueCondition('max'),
          }),
          z.meta({
            maxProperties: MAX_SET_CUSTOM,
            description:
              'Custom fields to set by name (null clears one); a name the client has not used yet is created as a contact write creates it',
          }),
        ),
    ),
    add_tags: z.optional(tagList('Tags to add')),
    remove_tags: z.optional(tagList('Tags to remove')),
    next: next('next', 'After the update'),
  })
  .check(
    z.meta({
      id: 'JourneyUpdateContactStep',
      description: "Changes the contact at once, in the run's own write; later steps read the changed contact",
    }),
  );

const ExitStep = z
  .strictObject({ ...stepBase, type: z.literal('exit') })
  .check(z.meta({ id: 'JourneyExitStep', description: 'Ends the run here (reason `exit_step`)' }));

export const STEP_TYPES = [
  'send',
  'wait',
  'wait_until',
  'wait_for_event',
  'branch',
  'split',
  'update_contact',
  'exit',
] as const;

export const JourneyStepSchema = z
  .discriminatedUnion(
    'type',
    [SendStep, WaitStep, WaitUntilStep, WaitForEventStep, BranchStep, SplitStep, UpdateContactStep, ExitStep],
    { error: `Must be a step: type one of ${STEP_TYPES.join(', ')}` },
  )
  .check(z.meta({ id: 'JourneyStep', description: 'One step, told apart by `type`.' }));

export const JourneySettingsSchema = z
  .strictObject({
    category: z.enum(WORKFLOW_CATEGORIES, { error: 'Must be transactional or marketing' }).check(
      z.meta({
        description:
          'transactional: mail the contact must get to keep using the product (reaches an unsubscribed contact); marketing: everything else (stops when the contact unsubscribes or leaves the topic)',
      }),
    ),
    topic_id: z.nullable(TopicId).check(
      z.meta({
        description:
          'Marketing only (422 `read_only` on a transactional journey): the topic (GET /client/topics) its e-mails go under; a contact that left it gets none. Null: none. Depends on stored data: a topic the client does not have is a 422 `reference`',
      }),
    ),
    critical: z.boolean({ error: expected('critical', 'a boolean') }).check(
      z.meta({
        description:
          "Transactional only (422 `read_only` on a marketing journey): its e-mails may pass the contact's daily cap when the client allows critical mail to",
      }),
    ),
    exit_events: z.array(ExitEventType, { error: 'Must be an array of event types' }).check(
      z.maxLength(MAX_EXIT_EVENTS, `Must list at most ${MAX_EXIT_EVENTS} event types`),
      z.refine((types) => new Set(types).size === types.length, {
        message: 'Must not repeat an event type',
        params: issueCondition('format'),
      }),
      z.meta({
        uniqueItems: true,
        description: `Event types that end a contact's run (reason \`goal_reached\`), its e-mails not yet sent cancelled. At most ${MAX_EXIT_EVENTS}, each an event type slug or \`${ANY_EVENT}\` (any event), none repeated, never the trigger's event type (422 \`format\`: an event that starts a run never exits it); \`${UPGRADE_EVENT}\` also matches any event with \`upgrade: true\``,
      }),
    ),
    conversion_window_days: integer(
      'conversion_window_days',
      CUSTOMIZATION_RANGE.conversion_window_days,
      ' days',
    ).check(
      z.meta({
        description:
          'An exit event this many days or fewer after an e-mail of the journey was sent to the contact counts as a conversion',
      }),
    ),
  })
  .check(z.meta({ id: 'JourneySettings', description: "The journey's mail kind, topic and goal." }));

/** The journey a client writes; `satisfies` holds the schema to the types the engine reads. */
export const JourneyDefinitionSchema = z
  .strictObject({
    trigger: JourneyTriggerSchema,
    entry: stepIdAt('entry').check(
      z.meta({ description: 'The first step: a step of `steps` (422 `reference` otherwise)' }),
    ),
    steps: z
      .array(JourneyStepSchema, { error: 'Must be an array of steps' })
      .check(
        z.minLength(1, 'Must list at least 1 step'),
        z.maxLength(L.steps, `Must list at most ${L.steps} steps`),
        z.meta({ description: `1 to ${L.steps} steps, in any order` }),
      ),
    settings: JourneySettingsSchema,
  })
  .check(
    z.meta({
      id: 'JourneyDefinition',
      description:
        `A journey: a trigger, a flat list of steps joined by step ids, and settings. Every edge key is required (null ends the run there). Beyond each field's shape, a valid definition: ` +
        `has unique step ids (422 \`unique\`); names existing steps in \`entry\` and every edge (\`reference\`); reaches every step from \`entry\` (\`graph\`); has no cycle (\`graph\`, naming the loop); has split percentages adding up to 100 (\`graph\`); leads every arm of a split with a \`winner\` to a send step, and has exit events for a conversions winner (\`graph\`); ` +
        `reads engagement only of a send step every path to the reader passes (\`reference\`); reads segment membership only in branch steps (\`format\`); has a trigger key when a wait_for_event matches it (\`required\`); never exits on its trigger's event type (\`format\`); ` +
        `takes a topic only when marketing and critical only when transactional (\`read_only\`); names templates, topics and segments the client has (\`reference\`, depends on stored data); ` +
        `is at most ${L.definitionBytes} bytes as JSON (\`max\`). Every issue is reported at once, at its JSON path (\`steps.3.on_timeout\`).`,
    }),
  ) satisfies z.ZodMiniType<JourneyDefinition, unknown>;

const ISSUE_CONDITIONS = [
  'required',
  'type',
  'format',
  'min',
  'max',
  'enum',
  'unique',
  'reference',
  'graph',
  'read_only',
] as const satisfies readonly JourneyIssue['condition'][];

/** One issue of a definition, in answers (validate, a draft's save, a refused publish). */
export const JourneyIssueSchema = z
  .object({
    path: z.string().check(
      z.meta({
        description:
          'Where in the definition, as a dotted JSON path (`steps.3.on_timeout`); empty: the whole definition',
      }),
    ),
    condition: z.enum(ISSUE_CONDITIONS).check(z.meta({ description: 'The error condition (ErrorItem `condition`)' })),
    error: z.string().check(z.meta({ description: 'What is wrong, for people' })),
  })
  .check(
    z.meta({ id: 'JourneyIssue', description: 'Something a definition must change to be published.' }),
  ) satisfies z.ZodMiniType<JourneyIssue, unknown>;

export { ISSUE_CONDITIONS as JOURNEY_ISSUE_CONDITIONS };
