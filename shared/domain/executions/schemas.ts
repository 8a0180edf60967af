import { DateTime } from 'luxon';
import * as z from 'zod';
import type { ExecutionMessage as ExecutionMessageShape } from '../../ports.js';
import type { ExecutionStatus } from './execution-record.js';

const positiveInt = (max: number, what: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `Must be ${what}`)
    .transform(Number)
    .pipe(z.int().min(1, `Must be ${what}`).max(max, `Must be at most ${max}`));

type Bound = { iso: string; dateOnly: boolean };

/** RFC 3339 (with offset) or YYYY-MM-DD (UTC day). */
const bound = z.string().transform((raw, ctx): Bound => {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(raw);
  const parsed = dateOnly ? DateTime.fromISO(raw, { zone: 'utc' }) : DateTime.fromISO(raw, { setZone: true });
  const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(raw);
  if (!parsed.isValid || (!dateOnly && !rfc3339)) {
    ctx.addIssue({ code: 'custom', message: 'Must be an RFC 3339 timestamp or a date YYYY-MM-DD', params: { condition: 'format' } });
    return z.NEVER;
  }
  return { iso: parsed.toUTC().toISO()!, dateOnly };
});

/** GET /client/executions (DESIGN.md §5). A bare date as upper bound includes that whole day. */
export const ExecutionListQuery = z
  .object({
    workflow_id: positiveInt(999_999_999, 'a workflow id').optional(),
    status: z
      .enum(['1', '2', '3', '4', '5', '6', '7'], { error: 'Must be an execution status from 1 to 7' })
      .transform((v) => Number(v) as ExecutionStatus)
      .optional(),
    created_from: bound.optional(),
    created_to: bound.optional(),
    page: positiveInt(100_000, 'a page number from 1').optional().default(1),
    per_page: positiveInt(100, 'from 1 to 100').optional().default(20),
  })
  .transform((q, ctx) => {
    const createdFrom = q.created_from?.iso;
    const to = q.created_to;
    // Exclusive upper bound: the end of a bare date's day, or just after an instant.
    const createdBefore = to
      ? to.dateOnly
        ? DateTime.fromISO(to.iso, { zone: 'utc' }).plus({ days: 1 }).toISO()!
        : DateTime.fromISO(to.iso, { zone: 'utc' }).plus({ milliseconds: 1 }).toISO()!
      : undefined;
    if (createdFrom && createdBefore && createdFrom >= createdBefore) {
      ctx.addIssue({ code: 'custom', path: ['created_to'], message: 'Must not be before created_from', params: { condition: 'min' } });
      return z.NEVER;
    }
    return { workflowId: q.workflow_id, status: q.status, createdFrom, createdBefore, page: q.page, perPage: q.per_page };
  });
export type ExecutionListQuery = z.output<typeof ExecutionListQuery>;

/** `{execution_id}`: anything that is not a plain id names no execution (→ 404). */
export const ExecutionIdParams = z.object({
  execution_id: z
    .string()
    .transform((v) => (/^\d{1,16}$/.test(v) ? Number(v) : 0))
    .meta({ description: 'The execution id' }),
});

export const ExecutionMessage = z.object({
  client_id: z.int().positive(),
  execution_id: z.int().positive(),
}) satisfies z.ZodType<ExecutionMessageShape>;
