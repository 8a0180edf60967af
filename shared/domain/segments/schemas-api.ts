import { MAX_SEGMENTS_BY_TIER, SEGMENT_LIMITS as L } from '../../public/segment-rules.js';
import { plainIdParam } from '../../validation/plain-id.js';
import * as z from '../../validation/zod.js';
import { SegmentDefinitionSchema } from './definition/schemas.js';

const name = z
  .string({ error: (i) => (i.input === undefined ? 'name is required' : 'Must be a string') })
  .check(
    z.trim(),
    z.minLength(1, { message: 'Must not be blank', abort: true }),
    z.maxLength(L.nameChars, `Must be at most ${L.nameChars} characters`),
    z.meta({ description: `Shown in the segments list (1 to ${L.nameChars} characters)`, examples: ['Active buyers'] }),
  );
const description = z
  .string({ error: 'Must be a string' })
  .check(
    z.trim(),
    z.maxLength(L.descriptionChars, `Must be at most ${L.descriptionChars} characters`),
    z.meta({ description: `At most ${L.descriptionChars} characters` }),
  );

const limitsText =
  `Segments by plan: free ${MAX_SEGMENTS_BY_TIER.free}, starter ${MAX_SEGMENTS_BY_TIER.starter}, growth ` +
  `${MAX_SEGMENTS_BY_TIER.growth}, scale ${MAX_SEGMENTS_BY_TIER.scale} (409 \`max\` beyond)`;

export const SegmentIdParams = z.object({ id: plainIdParam(9, 'The segment id') });

/** POST /client/segments. */
export const SegmentCreateBody = z
  .strictObject({ name, description: z.optional(description), definition: SegmentDefinitionSchema })
  .check(z.meta({ id: 'SegmentCreate', description: limitsText }));
export type SegmentCreateBody = z.output<typeof SegmentCreateBody>;

/** PATCH /client/segments/{id}: any subset, with the version read. */
export const SegmentPatchBody = z
  .strictObject({
    name: z.optional(name),
    description: z.optional(description),
    definition: z.optional(SegmentDefinitionSchema),
    version: z.int({ error: 'Must be an integer' }).check(
      z.gte(1, 'Must be at least 1'),
      z.meta({
        description:
          'The segment `version` read: a segment whose definition changed since is 409 `state` (nothing written)',
      }),
    ),
  })
  .check(z.meta({ id: 'SegmentPatch' }));
export type SegmentPatchBody = z.output<typeof SegmentPatchBody>;

/** POST /client/segments/preview. */
export const SegmentPreviewBody = z.strictObject({ definition: SegmentDefinitionSchema });
export type SegmentPreviewBody = z.output<typeof SegmentPreviewBody>;

const count = z.int().check(
  z.gte(0),
  z.meta({
    description:
      'Members now, as counted from membership changes (it follows them within seconds); 0 before the first is counted',
  }),
);
const countedAt = z.nullable(z.string()).check(z.meta({ description: 'When `count` last moved; null: never' }));
const status = z.enum(['building', 'ready']).check(
  z.meta({
    description:
      '`building` while the contacts already stored are evaluated against the current version (a new segment, a ' +
      'changed definition): members join as the backfill goes; `ready` once every contact was evaluated',
  }),
);

export const SegmentBackfillView = z.object({
  version: z.int().check(z.meta({ description: 'The definition version being filled (or filled)' })),
  scanned: z.int().check(z.gte(0), z.meta({ description: 'Contacts evaluated so far for that version' })),
  shards_done: z.int().check(z.gte(0), z.meta({ description: 'Listing shards finished' })),
  shards: z.int().check(z.meta({ description: 'Listing shards in all (each is read in contact-id order)' })),
  done: z.boolean(),
  started_at: z.string(),
  finished_at: z.nullable(z.string()),
});

export const SegmentListItem = z
  .object({
    id: z.int(),
    name: z.string(),
    description: z.nullable(z.string()),
    status,
    version: z.int().check(z.meta({ description: 'Moves by one with each new definition' })),
    count,
    counted_at: countedAt,
    updated_at: z.string(),
  })
  .check(z.meta({ id: 'SegmentListItem' }));
export type SegmentListItem = z.output<typeof SegmentListItem>;

export const SegmentList = z.object({ segments: z.array(SegmentListItem) });
export const SegmentListMeta = z.object({
  total: z.int().check(z.gte(0)),
  max_segments: z.int().check(z.meta({ description: limitsText })),
});

export const SegmentView = z
  .object({
    id: z.int(),
    name: z.string(),
    description: z.nullable(z.string()),
    // The request's SegmentDefinition, as stored; named once in the document (its input form) to keep one component.
    definition: z
      .record(z.string(), z.unknown())
      .check(z.meta({ description: 'The definition as saved (the `SegmentDefinition` schema of the request bodies)' })),
    status,
    version: z.int().check(z.meta({ description: 'Moves by one with each new definition; PATCH names it' })),
    count,
    counted_at: countedAt,
    backfill: SegmentBackfillView,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .check(z.meta({ id: 'Segment' }));
export type SegmentView = z.output<typeof SegmentView>;

export const DeletedSegment = z.object({ id: z.int(), deleted: z.literal(true) });

export const SegmentPreviewView = z
  .object({
    count: z.int().check(z.meta({ description: 'Contacts read that the definition holds for' })),
    sampled: z.int().check(z.meta({ description: 'Contacts read' })),
    exact: z.boolean().check(
      z.meta({
        description: `True when every contact was read (${L.previewContacts} or fewer): \`count\` is the number of members. False beyond: \`count\` of \`sampled\` and \`share\` describe the contacts read only (the lowest ids of each listing shard, so older contacts weigh more)`,
      }),
    ),
    share: z.number().check(z.meta({ description: '`count` / `sampled` (0 when nothing was read)' })),
  })
  .check(z.meta({ id: 'SegmentPreview' }));
export type SegmentPreviewView = z.output<typeof SegmentPreviewView>;

export const SegmentMembersQuery = z.object({
  per_page: z._default(
    z.coerce
      .number()
      .check(
        z.int('Must be an integer'),
        z.gte(1, 'Must be at least 1'),
        z.lte(L.membersPerPage, `Must be at most ${L.membersPerPage}`),
      ),
    50,
  ),
  cursor: z.optional(
    z
      .string()
      .check(
        z.maxLength(200, 'Not a cursor of this list'),
        z.meta({ description: '`next_cursor` of the previous page, unchanged; anything else is a 422 `format`' }),
      ),
  ),
});
export type SegmentMembersQuery = z.output<typeof SegmentMembersQuery>;

export const SegmentMember = z.object({
  id: z.int(),
  email: z.string(),
  first_name: z.nullable(z.string()),
  last_name: z.nullable(z.string()),
  entered_at: z.string().check(z.meta({ description: 'When the contact entered the segment' })),
});
export const SegmentMemberList = z.object({
  contacts: z.array(SegmentMember),
  next_cursor: z
    .nullable(z.string())
    .check(z.meta({ description: 'Pass as `cursor` for the next page; null on the last page' })),
});
export type SegmentMemberList = z.output<typeof SegmentMemberList>;
