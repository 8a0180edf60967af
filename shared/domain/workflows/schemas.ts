import * as z from 'zod';

/** `{workflow_id}` of the workflow paths; anything that is not a plain id names no workflow (→ 404). */
export const WorkflowIdParams = z.object({
  workflow_id: z
    .string()
    .transform((v) => (/^\d{1,9}$/.test(v) ? Number(v) : 0))
    .meta({ description: 'The workflow id (GET /client/workflows lists them)' }),
});

const bounded = (min: number, max: number, what: string) =>
  z
    .int({ error: `Must be an integer from ${min} to ${max}${what}` })
    .min(min, { message: `Must be at least ${min}${what}`, abort: true })
    .max(max, { message: `Must be at most ${max}${what}` })
    .nullable()
    .optional();

/**
 * PATCH /client/workflows/{workflow_id}/customization (DESIGN.md §5 bounds). Absent keeps an override, null removes
 * it (the workflow's default applies again), a value sets it.
 */
export const CustomizationPatch = z.object({
  template_id: z.int({ error: 'Must be a template id (integer)' }).min(1, 'Must be a template id').nullable().optional(),
  delay_minutes: bounded(0, 525_600, ' minutes (one year)'),
  priority_score: bounded(0, 100, ''),
  preferred_send_hour: bounded(0, 23, ' (hour of the day)'),
  preferred_send_minute: bounded(0, 59, ' (minute of the hour)'),
});
export type CustomizationPatch = z.output<typeof CustomizationPatch>;

export const AuditQuery = z.object({
  page: z.coerce.number({ error: 'Must be an integer' }).int('Must be an integer').min(1, 'Must be at least 1').optional().default(1),
  per_page: z.coerce
    .number({ error: 'Must be an integer' })
    .int('Must be an integer')
    .min(1, 'Must be at least 1')
    .max(100, 'Must be at most 100')
    .optional()
    .default(20),
});
export type AuditQuery = z.output<typeof AuditQuery>;
