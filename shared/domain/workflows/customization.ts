import { CUSTOMIZATION_RANGE } from '../../public/workflow-rules.js';
import * as z from '../../validation/zod.js';
import { UtcTimestamp } from '../time/utc-timestamp.js';
import { SEND_TIME_MODES, type SendTimeMode, type WorkflowDefinition } from './catalog.js';
import { conversionWindowDaysOf, exitEventsOf } from './goals.js';

/** The per-client overrides of a workflow (SPEC.md Workflow customization); absent = the workflow's default. */
export const NUMERIC_OVERRIDE_FIELDS = [
  'template_id',
  'delay_minutes',
  'priority_score',
  'preferred_send_hour',
  'preferred_send_minute',
  'send_time_mode',
  'conversion_window_days',
  'topic_id',
] as const;
export type NumericOverrideField = (typeof NUMERIC_OVERRIDE_FIELDS)[number];
/** Every override; `exit_events` is a list of event types, the others numbers. */
export const OVERRIDE_FIELDS = [...NUMERIC_OVERRIDE_FIELDS, 'exit_events'] as const;
export type OverrideField = (typeof OVERRIDE_FIELDS)[number];
export type Overrides = Partial<Record<NumericOverrideField, number>> & { exit_events?: string[] };

/** The customization item of one workflow for one client. */
export interface CustomizationRecord extends Overrides {
  workflow_id: number;
  /** Optimistic-locking counter of the overrides (absent before the first customization). */
  version?: number;
  /** The client copy made by clone-template (the clone marker). */
  clone_template_id?: number;
  updated_at?: string;
}

/** One change of a customization: who (API key id), when, and the overrides before and after. */
export interface CustomizationAuditRecord {
  id: string;
  workflow_id: number;
  key_id: number | null;
  auth_method: 'api_key' | 'jwt' | 'session';
  /** The dashboard user, for a change made with a session. */
  user_id?: number;
  request_id: string | null;
  at: string;
  before: OverrideSnapshot;
  after: OverrideSnapshot;
}

/** Every override (null = not overridden) plus the send_time_mode they imply. */
export type OverrideSnapshot = Record<
  Exclude<NumericOverrideField, 'conversion_window_days' | 'topic_id'>,
  number | null
> & {
  send_time_mode: SendTimeMode;
  /** The goal overrides; absent from entries written before goals existed (not overridden then). */
  conversion_window_days?: number | null;
  exit_events?: string[] | null;
  /** The workflow's topic; absent from entries written before topics existed. */
  topic_id?: number | null;
};

export const overridesOf = (record: CustomizationRecord | undefined): Overrides =>
  Object.fromEntries(OVERRIDE_FIELDS.filter((f) => record?.[f] !== undefined).map((f) => [f, record![f]])) as Overrides;

/**
 * The mode the client chose (`send_time_mode`); without one, as before that field could be set: 1
 * (preferred time of day) when a preferred hour is set, otherwise the workflow's default mode.
 */
export const sendTimeModeOf = (overrides: Overrides, workflow: WorkflowDefinition): SendTimeMode => {
  const chosen = overrides.send_time_mode;
  if (
    chosen === SEND_TIME_MODES.immediate ||
    chosen === SEND_TIME_MODES.preferredTime ||
    chosen === SEND_TIME_MODES.optimal
  )
    return chosen;
  return overrides.preferred_send_hour !== undefined ? SEND_TIME_MODES.preferredTime : workflow.default_send_time_mode;
};

export function snapshotOf(overrides: Overrides, workflow: WorkflowDefinition): OverrideSnapshot {
  return {
    template_id: overrides.template_id ?? null,
    delay_minutes: overrides.delay_minutes ?? null,
    priority_score: overrides.priority_score ?? null,
    preferred_send_hour: overrides.preferred_send_hour ?? null,
    preferred_send_minute: overrides.preferred_send_minute ?? null,
    // The mode in effect (the override itself is not kept apart: a snapshot shows what applied).
    send_time_mode: sendTimeModeOf(overrides, workflow),
    conversion_window_days: overrides.conversion_window_days ?? null,
    exit_events: overrides.exit_events ? [...overrides.exit_events] : null,
    topic_id: overrides.topic_id ?? null,
  };
}

/** Each override's value as a comparable string (a list compares by its items, in order). */
const overrideKey = (value: number | string[] | undefined): string =>
  value === undefined ? '' : JSON.stringify(value);
export const sameOverrides = (a: Overrides, b: Overrides): boolean =>
  OVERRIDE_FIELDS.every((f) => overrideKey(a[f]) === overrideKey(b[f]));

/** A send time mode: 0 immediate, 1 preferred time of day in the contact's time zone, 2 optimal (learnt open hours). */
export const SEND_TIME_MODE_DESCRIPTION =
  "0 immediate, 1 at a preferred time of day in the contact's time zone, 2 optimal: at the contact's most likely open hour " +
  "learnt from its human opens (then the client's, then the preferred time, then immediate)";
export const SendTimeModeValue = z
  .literal([SEND_TIME_MODES.immediate, SEND_TIME_MODES.preferredTime, SEND_TIME_MODES.optimal])
  .check(z.meta({ description: SEND_TIME_MODE_DESCRIPTION }));

const override = z.nullable(z.int());
/** Each override as the client set it; null = the workflow's default applies. */
const Overrides = z.object({
  template_id: override,
  delay_minutes: override,
  priority_score: override,
  preferred_send_hour: override,
  preferred_send_minute: override,
  send_time_mode: override,
  conversion_window_days: override,
  topic_id: override,
  exit_events: z.nullable(z.array(z.string())),
} satisfies Record<OverrideField, z.ZodMiniType>);
const OverridesView = Overrides.check(
  z.meta({ description: "What the client overrode (null: the workflow's default)" }),
);

const range = CUSTOMIZATION_RANGE;

/** SPEC.md's Workflow customization (OpenAPI `WorkflowCustomization`): the values in effect and the overrides. */
export const CustomizationView = z
  .object({
    workflow_id: z.int().check(z.gte(1)),
    template_id: z.int().check(z.gte(1)),
    delay_minutes: z.int().check(z.gte(0)),
    priority_score: z.int().check(z.gte(range.priority_score.min), z.lte(range.priority_score.max)),
    preferred_send_hour: z.nullable(
      z.int().check(z.gte(range.preferred_send_hour.min), z.lte(range.preferred_send_hour.max)),
    ),
    preferred_send_minute: z.nullable(
      z.int().check(z.gte(range.preferred_send_minute.min), z.lte(range.preferred_send_minute.max)),
    ),
    send_time_mode: SendTimeModeValue,
    exit_events: z.array(z.string()).check(
      z.meta({
        description:
          "Event types that end the workflow for a contact (its goal is met or moot): the override, else the catalog's default. " +
          '`upgrade` also matches any event with `upgrade: true`; `*` matches any event; an event that starts the workflow never exits it',
      }),
    ),
    conversion_window_days: z.int().check(
      z.gte(range.conversion_window_days.min),
      z.lte(range.conversion_window_days.max),
      z.meta({
        description:
          'An exit event this many days or fewer after an e-mail of the workflow was sent to the contact is a conversion',
      }),
    ),
    topic_id: z.nullable(z.int()).check(
      z.meta({
        description: "The topic this marketing workflow's e-mails belong to (GET /client/topics); null: none",
      }),
    ),
    overrides: OverridesView,
    updated_at: z
      .nullable(UtcTimestamp)
      .check(z.meta({ description: 'Last change of the overrides; null before the first' })),
  })
  .check(
    z.meta({
      id: 'WorkflowCustomization',
      description: "A workflow's per-client settings in effect (override or default).",
    }),
  );
export type CustomizationView = z.output<typeof CustomizationView>;

// From the object without its `.meta` check: z.extend keeps checks, and classic's `.extend` dropped the description.
const Snapshot = z.extend(Overrides, { send_time_mode: SendTimeModeValue });

/** One change of a workflow's customization (OpenAPI `CustomizationAuditEntry`). */
export const CustomizationAuditView = z
  .object({
    id: z.string(),
    workflow_id: z.int().check(z.gte(1)),
    key_id: z
      .nullable(z.int())
      .check(z.meta({ description: 'The API key that made the change; null for a JWT or a session' })),
    auth_method: z.enum(['api_key', 'jwt', 'session']),
    user_id: z
      .optional(z.int())
      .check(z.meta({ description: 'The dashboard user who made the change with a session' })),
    request_id: z.nullable(z.string()),
    at: UtcTimestamp,
    before: Snapshot,
    after: Snapshot,
  })
  .check(z.meta({ id: 'CustomizationAuditEntry', description: 'Who changed which overrides, when.' }));

/**
 * SPEC.md's Workflow customization with the values in effect (override or default), plus `overrides` showing
 * what the client set (null = default). Without a preferred hour the send time follows the workflow's default
 * mode (onboarding tips: the client's morning slot).
 */
export function toCustomizationView(
  workflow: WorkflowDefinition,
  record: CustomizationRecord | undefined,
): CustomizationView {
  const overrides = overridesOf(record);
  const hour = overrides.preferred_send_hour;
  return {
    workflow_id: workflow.id,
    template_id: overrides.template_id ?? workflow.default_template_id,
    delay_minutes: overrides.delay_minutes ?? workflow.default_delay_minutes,
    priority_score: overrides.priority_score ?? workflow.default_priority_score,
    preferred_send_hour: hour ?? null,
    preferred_send_minute: hour !== undefined ? (overrides.preferred_send_minute ?? 0) : null,
    send_time_mode: sendTimeModeOf(overrides, workflow),
    exit_events: [...exitEventsOf(workflow, overrides)],
    conversion_window_days: conversionWindowDaysOf(overrides),
    topic_id: overrides.topic_id ?? null,
    overrides: {
      ...(Object.fromEntries(NUMERIC_OVERRIDE_FIELDS.map((f) => [f, overrides[f] ?? null])) as Record<
        NumericOverrideField,
        number | null
      >),
      exit_events: overrides.exit_events ? [...overrides.exit_events] : null,
    },
    updated_at: record?.updated_at ?? null,
  };
}
