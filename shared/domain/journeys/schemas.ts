import * as z from '../../validation/zod.js';
import { plainIdParam } from '../../validation/plain-id.js';
import { UtcTimestamp } from '../time/utc-timestamp.js';
import { JOURNEY_LIMITS, MAX_JOURNEYS_BY_TIER, STEP_ID_PATTERN } from '../../public/journey-rules.js';
import { JourneyDefinitionSchema, JourneyIssueSchema } from './definition/schemas.js';
import type { JourneyDefinition } from './definition/types.js';

const KB = Math.round(JOURNEY_LIMITS.definitionBytes / 1024);

export { JourneyIdParams, JourneyStatsQuery, JourneyStatsView } from './stats-schemas.js';

export const JourneyVersionParams = z.object({
  id: plainIdParam(9, 'The journey id'),
  version: plainIdParam(6, 'The version number (1 is the first published)'),
});

const name = z
  .string({ error: (i) => (i.input === undefined ? 'name is required' : 'Must be a string') })
  .check(
    z.trim(),
    z.minLength(1, { message: 'Must not be blank', abort: true }),
    z.maxLength(JOURNEY_LIMITS.nameChars, `Must be at most ${JOURNEY_LIMITS.nameChars} characters`),
    z.meta({ description: 'Shown in the journeys list and the dashboard', examples: ['Cart abandonment'] }),
  );
const description = z
  .string({ error: 'Must be a string' })
  .check(
    z.trim(),
    z.maxLength(JOURNEY_LIMITS.descriptionChars, `Must be at most ${JOURNEY_LIMITS.descriptionChars} characters`),
  );

/** A definition as a draft takes it: any JSON object (checked for size by the use case), validated, not refused. */
/** A member name of a draft's top level (the definition's are short; the bound keeps a stray one sane). */
const memberName = z.string().check(z.maxLength(100, 'Must be at most 100 characters'));
const draftDefinition = z.record(memberName, z.unknown()).check(
  z.meta({
    description:
      `A journey definition (the \`JourneyDefinition\` schema), at most ${KB} KB as JSON (422 \`max\`). A draft may be ` +
      "incomplete: it is saved as it is and the answer's `issues` say what it lacks; only a draft without issues publishes.",
  }),
);

const draftVersion = z
  .int({ error: 'Must be an integer' })
  .check(
    z.gte(1),
    z.meta({ description: 'The draft_version read: a draft changed since (another tab, another user) is 409 `state`' }),
  );

/** POST /client/journeys. */
export const JourneyCreateBody = z
  .object({
    name,
    description: z.optional(description),
    definition: z.optional(draftDefinition),
    copy_of: z.optional(
      z.int({ error: 'Must be an integer' }).check(
        z.gte(1),
        z.meta({
          description:
            'Start the draft as a copy of a system journey (1–8, as customized) or of one of your journeys (its draft). ' +
            'Not with `definition` (422 `format`)',
        }),
      ),
    ),
  })
  .check(z.meta({ not: { properties: { definition: {}, copy_of: {} }, required: ['definition', 'copy_of'] } }));
export type JourneyCreateBody = z.output<typeof JourneyCreateBody>;

/** PATCH /client/journeys/{id}: any subset; absent keeps a value. */
export const JourneyPatch = z.object({ name: z.optional(name), description: z.optional(description) });
export type JourneyPatch = z.output<typeof JourneyPatch>;

/** PUT /client/journeys/{id}/draft. */
export const DraftBody = z.object({ definition: draftDefinition, draft_version: draftVersion });
export type DraftBody = z.output<typeof DraftBody>;

const stepId = z
  .string({ error: 'Must be a string' })
  .check(
    z.maxLength(JOURNEY_LIMITS.stepIdChars, `Must be at most ${JOURNEY_LIMITS.stepIdChars} characters`),
    z.regex(STEP_ID_PATTERN, 'Must be a step id'),
  );

/** What happens to runs on a step the new version removes. */
export const StepMoveSchema = z
  .discriminatedUnion('action', [
    z.strictObject({ action: z.literal('finish_old') }),
    z.strictObject({ action: z.literal('move_to'), step_id: stepId }),
    z.strictObject({ action: z.literal('end') }),
  ])
  .check(
    z.meta({
      id: 'StepMove',
      description:
        'For runs on a step the new version removes: `finish_old` they finish on the version they are on; `move_to` ' +
        'they continue at `step_id`, a step of the new version; `end` their runs end (reason `version_removed`)',
    }),
  );

/** POST /client/journeys/{id}/publish. */
export const PublishBody = z.object({
  draft_version: draftVersion,
  moves: z.optional(
    z.record(stepId, StepMoveSchema).check(
      z.meta({
        description:
          'By step id of the live version: a choice for every step the draft removes (422 `required` at ' +
          '`moves.<step>` when one is missing), and no other',
      }),
    ),
  ),
  disable_source_workflow: z.optional(
    z.boolean({ error: 'Must be a boolean' }).check(
      z.meta({
        description:
          'For a copy of a system journey whose workflow is enabled: true disables that workflow (settings ' +
          '`enabled_workflows`) in the same write, so the copy replaces it; without it publishing is 409 `state`',
      }),
    ),
  ),
});
export type PublishBody = z.output<typeof PublishBody>;

/** GET /client/journeys/{id}/diff. */
export const DiffQuery = z.object({
  from: plainIdParam(6, 'A version number'),
  to: z
    .string({ error: 'Must be a string' })
    .check(
      z.maxLength(6, 'Must be at most 6 characters'),
      z.regex(/^(draft|\d{1,6})$/, 'Must be a version number or draft'),
      z.meta({ description: 'A version number, or `draft` (the saved draft)', examples: ['draft'] }),
    ),
});

const status = z.enum(['draft', 'live', 'paused', 'archived']).check(
  z.meta({
    description:
      '`draft` never published (DELETE removes it); `live` new runs start; `paused` no new runs, runs hold at their ' +
      'next step; `archived` no new runs, runs end at their next step. A system journey is `live` while its workflow ' +
      'is enabled (settings `enabled_workflows`), else `paused`',
  }),
);

const journeyId = z.int().check(z.gte(1));

/** An item of GET /client/journeys. */
export const JourneyListItem = z
  .object({
    id: journeyId,
    name: z.string(),
    description: z.string(),
    system: z.boolean().check(z.meta({ description: 'One of the 8 system journeys (the workflows): read-only' })),
    status,
    enabled: z
      .nullable(z.boolean())
      .check(z.meta({ description: "A system journey's workflow is enabled; null for yours" })),
    live_version: z.nullable(z.int()).check(z.meta({ description: 'The published version runs start on' })),
    updated_at: z.nullable(UtcTimestamp).check(z.meta({ description: 'null for a system journey' })),
  })
  .check(z.meta({ id: 'JourneySummary', description: 'A journey as the list shows it.' }));

export const JourneyList = z.object({ journeys: z.array(JourneyListItem) });
export const JourneyListMeta = z.object({
  total: z.int().check(z.gte(0)),
  max_journeys: z.int().check(
    z.meta({
      description:
        `Journeys of your own not archived the plan allows (free ${MAX_JOURNEYS_BY_TIER.free}, starter ` +
        `${MAX_JOURNEYS_BY_TIER.starter}, growth ${MAX_JOURNEYS_BY_TIER.growth}, scale ${MAX_JOURNEYS_BY_TIER.scale})`,
    }),
  ),
});

export const JourneyIssues = z
  .array(JourneyIssueSchema)
  .check(z.meta({ description: 'What keeps the draft from publishing, each at its JSON path in the definition' }));

/** GET /client/journeys/{id} and the answer of every write of a journey. */
export const JourneyView = z
  .object({
    id: journeyId,
    name: z.string(),
    description: z.string(),
    system: z.boolean(),
    status,
    enabled: z.nullable(z.boolean()),
    live_version: z.nullable(z.int()),
    draft: z
      .nullable(z.record(z.string(), z.unknown()))
      .check(
        z.meta({ description: 'The saved draft as it was written (may be incomplete); null for a system journey' }),
      ),
    draft_version: z
      .int()
      .check(z.gte(0), z.meta({ description: 'Send it back with PUT …/draft and publish; 0 for a system journey' })),
    issues: JourneyIssues,
    live: z.nullable(JourneyDefinitionSchema).check(
      z.meta({
        description:
          "The live version's definition (null before the first publish); for a system journey, the workflow as " +
          'customized, written as a journey',
      }),
    ),
    copied_from: z.nullable(z.int()).check(z.meta({ description: 'The system journey this one was copied from' })),
    created_at: z.nullable(UtcTimestamp),
    updated_at: z.nullable(UtcTimestamp),
  })
  .check(
    z.meta({ id: 'Journey', description: 'A journey: its head, its draft with its issues, and its live definition.' }),
  );
export type JourneyView = z.output<typeof JourneyView>;

/**
 * A definition as a view's schema types it: the same data (the schema `satisfies` the type), with the type's
 * read-only condition lists seen as the schema's arrays.
 */
export const definitionView = (definition: JourneyDefinition): z.output<typeof JourneyDefinitionSchema> =>
  definition as z.output<typeof JourneyDefinitionSchema>;

export const DraftSaved = z.object({
  draft_version: z.int().check(z.meta({ description: 'The new draft_version: send it with the next save or publish' })),
  issues: JourneyIssues,
});

export const StepImpact = z.object({
  step_id: z.string(),
  change: z.enum(['removed', 'changed', 'unchanged']),
  waiting: z.int().check(
    z.gte(0),
    z.meta({
      description:
        'Runs on the step now (counted from the change stream: it follows the runs by up to a minute). Publish still ' +
        'asks a move for every removed step, even at 0: a run may arrive between this count and the publish',
    }),
  ),
});

export const ValidationView = z.object({
  valid: z.boolean(),
  issues: JourneyIssues,
  impact: z.array(StepImpact).check(
    z.meta({
      description: 'Each step of the live version and what the draft does to it (empty before the first publish)',
    }),
  ),
  counted_at: z
    .nullable(z.string())
    .check(z.meta({ description: 'When `waiting` was read (ISO 8601); null before the first publish (no impact)' })),
});

export const JourneyVersionView = z
  .object({
    journey_id: journeyId,
    version: z.int().check(z.gte(1)),
    definition: JourneyDefinitionSchema,
    moves: z.record(z.string(), StepMoveSchema),
    published_at: UtcTimestamp,
    published_by: z.nullable(z.int()).check(z.meta({ description: 'The dashboard user; null through an API key' })),
  })
  .check(z.meta({ id: 'JourneyVersion', description: 'An immutable published version of a journey.' }));
export type JourneyVersionView = z.output<typeof JourneyVersionView>;

export const JourneyVersionList = z.object({
  versions: z.array(z.object({ version: z.int(), published_at: UtcTimestamp, published_by: z.nullable(z.int()) })),
});

export const DeletedJourney = z.object({ id: journeyId, name: z.string(), deleted: z.literal(true) });
