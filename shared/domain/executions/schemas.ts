import { DateTime } from 'luxon';
import * as z from '../../validation/zod.js';
import { plainIdParam } from '../../validation/plain-id.js';
import { rejectInTransform } from '../../validation/transform-issue.js';
import { boundedString, MAX_TIMESTAMP_LENGTH } from '../../validation/string-bounds.js';
import { cursorField, MAX_PAGED_ITEMS, PAGE_WINDOW_RULE, pagePositionProblem } from '../pagination/bounded-page.js';
import type { ExecutionMessage as ExecutionMessageShape } from '../../platform.js';
import type { ExecutionStatus } from './execution-record.js';

const positiveInt = (max: number, what: string) =>
  z
    .pipe(
      z.pipe(
        z.string().check(z.maxLength(9, `Must be ${what}`), z.regex(/^\d{1,9}$/, `Must be ${what}`)),
        z.transform(Number),
      ),
      z.int().check(z.gte(1, `Must be ${what}`), z.lte(max, `Must be at most ${max}`)),
    )
    .check(z.meta({ pattern: positiveIntPattern(max), description: `An integer from 1 to ${max}, in decimal` }));

/**
 * The decimals 1 to `max` without leading zeros as a regex, for the document: `max` is 10^k (100) or 10^k − 1
 * (999 999 999), the bounds this module uses.
 */
function positiveIntPattern(max: number): string {
  const digits = String(max).length;
  if (/^9+$/.test(String(max))) return `^[1-9]\\d{0,${digits - 1}}$`;
  if (/^10*$/.test(String(max))) return `^(?:[1-9]\\d{0,${digits - 2}}|${max})$`;
  throw new Error(`No pattern for the bound ${max}`);
}

type Bound = { iso: string; dateOnly: boolean };

/** RFC 3339 (with offset) or YYYY-MM-DD (UTC day). */
const bound = z
  .pipe(
    boundedString(MAX_TIMESTAMP_LENGTH),
    z.transform((raw: string, ctx): Bound => {
      const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(raw);
      const parsed = dateOnly ? DateTime.fromISO(raw, { zone: 'utc' }) : DateTime.fromISO(raw, { setZone: true });
      const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(raw);
      if (!parsed.isValid || (!dateOnly && !rfc3339)) {
        return rejectInTransform(ctx, 'format', 'Must be an RFC 3339 timestamp or a date YYYY-MM-DD');
      }
      return { iso: parsed.toUTC().toISO()!, dateOnly };
    }),
  )
  .check(
    z.meta({
      anyOf: [{ format: 'date-time' }, { format: 'date' }],
      // Within what the parser takes: upper-case T and Z, seconds 00–59 (no leap second).
      pattern: '^\\d{4}-\\d{2}-\\d{2}(?:T\\d{2}:\\d{2}:[0-5]\\d(?:\\.\\d+)?(?:Z|[+-]\\d{2}:\\d{2}))?$',
      description: 'An RFC 3339 timestamp with offset, or a date YYYY-MM-DD (a UTC day)',
    }),
  );

/** GET /client/executions (DESIGN.md §5). A bare date as upper bound includes that whole day. */
export const ExecutionListQuery = z.pipe(
  z.object({
    workflow_id: z.optional(positiveInt(999_999_999, 'a workflow id')),
    status: z.optional(
      z.pipe(
        z.enum(['1', '2', '3', '4', '5', '6', '7'], { error: 'Must be an execution status from 1 to 7' }),
        z.transform((v) => Number(v) as ExecutionStatus),
      ),
    ),
    created_from: z.optional(bound),
    created_to: z
      .optional(bound)
      .check(z.meta({ description: 'Not before created_from (a 422 `min`); a bare date includes that whole day' })),
    page: z._default(
      z.optional(positiveInt(MAX_PAGED_ITEMS, 'a page number from 1').check(z.meta({ description: PAGE_WINDOW_RULE }))),
      1,
    ),
    per_page: z._default(z.optional(positiveInt(100, 'from 1 to 100')), 20),
    cursor: cursorField(),
  }),
  z.transform((q, ctx) => {
    const pageProblem = pagePositionProblem(q);
    if (pageProblem) return rejectInTransform(ctx, pageProblem.condition, pageProblem.message, ['page']);
    const createdFrom = q.created_from?.iso;
    const to = q.created_to;
    // Exclusive upper bound: the end of a bare date's day, or just after an instant.
    const createdBefore = to
      ? to.dateOnly
        ? DateTime.fromISO(to.iso, { zone: 'utc' }).plus({ days: 1 }).toISO()!
        : DateTime.fromISO(to.iso, { zone: 'utc' }).plus({ milliseconds: 1 }).toISO()!
      : undefined;
    if (createdFrom && createdBefore && createdFrom >= createdBefore) {
      return rejectInTransform(ctx, 'min', 'Must not be before created_from', ['created_to']);
    }
    return {
      workflowId: q.workflow_id,
      status: q.status,
      createdFrom,
      createdBefore,
      page: q.page,
      perPage: q.per_page,
      cursor: q.cursor,
    };
  }),
);
export type ExecutionListQuery = z.output<typeof ExecutionListQuery>;

/** `{execution_id}`: anything that is not a plain id names no execution (→ 404). */
export const ExecutionIdParams = z.object({
  execution_id: plainIdParam(16, 'The execution id'),
});

export const ExecutionMessage = z.object({
  client_id: z.int().check(z.positive()),
  execution_id: z.int().check(z.positive()),
}) satisfies z.ZodMiniType<ExecutionMessageShape>;
