import * as z from '../../validation/zod.js';
import { cursorField, MAX_PAGED_ITEMS, PAGE_WINDOW_RULE, pagePositionCheck } from '../pagination/bounded-page.js';
import { plainIdParam } from '../../validation/plain-id.js';
import { CUSTOMIZATION_RANGE } from '../../public/workflow-rules.js';
import { SEND_TIME_MODES } from './catalog.js';
import { SEND_TIME_MODE_DESCRIPTION } from './customization.js';
import { ANY_EVENT, DEFAULT_CONVERSION_WINDOW_DAYS, MAX_EXIT_EVENTS } from './goals.js';
import { issueCondition } from '../../validation/issue-items.js';

/** An `exit_events` item: an event type slug (as POST /client/events takes it) or `*`, any event. */
const ExitEventType = z
  .string({ error: 'Must be an event type (string)' })
  .check(
    z.maxLength(100, 'Must be at most 100 characters'),
    z.regex(
      /^(\*|[A-Za-z0-9][A-Za-z0-9_.:-]*)$/,
      `Must be an event type slug (letters, digits, _ . : -) or ${ANY_EVENT}`,
    ),
  );

/** `{workflow_id}` of the workflow paths; anything that is not a plain id names no workflow (→ 404). */
export const WorkflowIdParams = z.object({
  workflow_id: plainIdParam(9, 'The workflow id (GET /client/workflows lists them)'),
});

const bounded = ({ min, max }: { min: number; max: number }, what: string) =>
  z.optional(
    z.nullable(
      z
        .int({ error: `Must be an integer from ${min} to ${max}${what}` })
        .check(
          z.gte(min, { message: `Must be at least ${min}${what}`, abort: true }),
          z.lte(max, { message: `Must be at most ${max}${what}` }),
        ),
    ),
  );

/**
 * PATCH /client/workflows/{workflow_id}/customization (DESIGN.md §5 bounds). Absent keeps an override, null removes
 * it (the workflow's default applies again), a value sets it.
 */
export const CustomizationPatch = z
  .object({
    template_id: z
      .optional(
        z.nullable(z.int({ error: 'Must be a template id (integer)' }).check(z.gte(1, 'Must be a template id'))),
      )
      .check(
        z.meta({
          description:
            "A system template or a live template of the client's; depends on stored data: any other id is a 404",
        }),
      ),
    delay_minutes: bounded(CUSTOMIZATION_RANGE.delay_minutes, ' minutes (one year)'),
    priority_score: bounded(CUSTOMIZATION_RANGE.priority_score, ''),
    preferred_send_hour: bounded(CUSTOMIZATION_RANGE.preferred_send_hour, ' (hour of the day)').check(
      z.meta({
        description:
          'Depends on stored data: unsetting it (null) while the stored customization keeps a preferred_send_minute is a 422 `required`',
      }),
    ),
    preferred_send_minute: bounded(CUSTOMIZATION_RANGE.preferred_send_minute, ' (minute of the hour)'),
    send_time_mode: z
      .optional(
        z.nullable(
          z.literal([SEND_TIME_MODES.immediate, SEND_TIME_MODES.preferredTime, SEND_TIME_MODES.optimal], {
            error: 'Must be 0 (immediate), 1 (preferred time) or 2 (optimal)',
          }),
        ),
      )
      .check(
        z.meta({
          description: `${SEND_TIME_MODE_DESCRIPTION}. Absent or null: 1 when a preferred hour is set, else the workflow's default`,
        }),
      ),
    exit_events: z
      .optional(
        z.nullable(
          z.array(ExitEventType, { error: 'Must be an array of event types, or null' }).check(
            z.maxLength(MAX_EXIT_EVENTS, `Must list at most ${MAX_EXIT_EVENTS} event types`),
            z.refine((types) => new Set(types).size === types.length, {
              message: 'Must not repeat an event type',
              params: issueCondition('format'),
            }),
            z.meta({ uniqueItems: true }),
          ),
        ),
      )
      .check(
        z.meta({
          description:
            `Event types that end the workflow for a contact: its executions not yet claimed for sending are cancelled (5) ` +
            `with reason \`goal_reached\`. At most ${MAX_EXIT_EVENTS}, each an event type slug or \`*\` (any event), none repeated; \`upgrade\` also ` +
            "matches any event with `upgrade: true`. Null: the catalog's default (GET /client/workflows `defaults.exit_events`). " +
            "Depends on stored data: the workflow's own trigger event type is a 422 `format` (an event that starts a workflow never exits it)",
        }),
      ),
    conversion_window_days: bounded(CUSTOMIZATION_RANGE.conversion_window_days, ' days').check(
      z.meta({
        description: `An exit event this many days or fewer after an e-mail of the workflow was sent to the contact counts as a conversion. Null: ${DEFAULT_CONVERSION_WINDOW_DAYS}`,
      }),
    ),
    topic_id: z
      .optional(
        z.nullable(z.int({ error: 'Must be a topic id (integer), or null' }).check(z.gte(1, 'Must be a topic id'))),
      )
      .check(
        z.meta({
          description:
            "The topic (GET /client/topics) the workflow's e-mails belong to: a contact that left it is skipped `topic_unsubscribed`; " +
            'null: none. Depends on stored data: a topic the client does not have is a 404 on `topic_id`; a transactional ' +
            'workflow takes no topic (422 `read_only`, it reaches every contact that is not suppressed)',
        }),
      ),
    category: z.optional(
      z.unknown().check(
        z.refine(() => false, {
          message:
            "A workflow's category is fixed by the catalog (GET /client/workflows `category`) and cannot be changed",
          params: issueCondition('read_only'),
        }),
        // `not: {}`: the document says no value is accepted, as the parse refuses every one.
        z.meta({
          not: {},
          description:
            "Not settable: a workflow's category is fixed by the catalog, so marketing mail can never be made transactional " +
            '(422 `read_only` on `category` whatever the value)',
        }),
      ),
    ),
  })
  // A minute needs an hour (sent with it, or stored already): the document asks for both together.
  .check(z.meta({ dependentRequired: { preferred_send_minute: ['preferred_send_hour'] } }));
export type CustomizationPatch = z.output<typeof CustomizationPatch>;

export const AuditQuery = z
  .object({
    // Classic's `.int(message)` on a number is the `z.int(message)` format used as a check (mini's coerce has no int).
    page: z._default(
      z.optional(
        z.coerce
          .number({ error: 'Must be an integer' })
          .check(
            z.int('Must be an integer'),
            z.gte(1, 'Must be at least 1'),
            z.lte(MAX_PAGED_ITEMS, `Must be at most ${MAX_PAGED_ITEMS}`),
            z.meta({ description: PAGE_WINDOW_RULE }),
          ),
      ),
      1,
    ),
    per_page: z._default(
      z.optional(
        z.coerce
          .number({ error: 'Must be an integer' })
          .check(z.int('Must be an integer'), z.gte(1, 'Must be at least 1'), z.lte(100, 'Must be at most 100')),
      ),
      20,
    ),
    cursor: cursorField(),
  })
  .check(pagePositionCheck());
export type AuditQuery = z.output<typeof AuditQuery>;
