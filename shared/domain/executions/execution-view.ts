import * as z from '../../validation/zod.js';
import { BoundedPageMeta, NextCursor } from '../pagination/bounded-page.js';
import { UtcTimestamp } from '../time/utc-timestamp.js';
import { findWorkflow } from '../workflows/catalog.js';
import { EXECUTION_STATUS, STATUS_TEXT, type ExecutionRecord } from './execution-record.js';

const STATUS_DESCRIPTION = Object.entries(EXECUTION_STATUS)
  .map(([name, value]) => `${value} ${name}`)
  .join(', ');

/** An execution status value of SPEC.md (1–7) and its name. */
export const ExecutionStatusValue = z.int().check(z.gte(1), z.lte(7), z.meta({ description: STATUS_DESCRIPTION }));
const statusText = z.enum(Object.values(STATUS_TEXT) as [string, ...string[]]);

/**
 * Where a journey's send step sits: present only on such an execution (the 8 system workflows' executions have none,
 * and their answers are as they were).
 */
export const JourneyStepFields = {
  run_id: z.optional(z.int().check(z.gte(1), z.meta({ description: "A journey's send step: the run it belongs to" }))),
  step_id: z.optional(
    z.string().check(z.meta({ description: "A journey's send step: the step's id in the journey's definition" })),
  ),
  journey_version: z.optional(
    z.int().check(z.gte(1), z.meta({ description: "A journey's send step: the journey version the run followed" })),
  ),
};

/** The journey fields of an execution's answer, each only when the execution has it. */
export const journeyStepFieldsOf = (
  e: Pick<ExecutionRecord, 'run_id' | 'step_id' | 'journey_version'>,
): { run_id?: number; step_id?: string; journey_version?: number } => ({
  ...(e.run_id !== undefined ? { run_id: e.run_id } : {}),
  ...(e.step_id !== undefined ? { step_id: e.step_id } : {}),
  ...(e.journey_version !== undefined ? { journey_version: e.journey_version } : {}),
});

/** An item of GET /client/executions (DESIGN.md §5; OpenAPI `Execution`). */
export const ExecutionView = z
  .object({
    id: z.int().check(z.gte(1)),
    workflow_id: z.int().check(z.gte(1)),
    workflow_name: z.nullable(z.string()),
    contact_id: z.int().check(z.gte(1)),
    event_id: z.nullable(z.int()),
    status: ExecutionStatusValue,
    status_text: statusText,
    reason: z.nullable(z.string()).check(z.meta({ description: 'Why it failed, was skipped or cancelled' })),
    goal_event_id: z
      .nullable(z.int())
      .check(z.meta({ description: 'Cancelled `goal_reached`: the exit event that ended it (goals); otherwise null' })),
    is_test: z.boolean(),
    attempt: z.int().check(z.gte(1)),
    retried_from: z.nullable(z.int()).check(z.meta({ description: 'The failed execution this one retries' })),
    scheduled_for: UtcTimestamp,
    processed_at: z.nullable(UtcTimestamp),
    sent_email_id: z.nullable(z.guid()),
    ...JourneyStepFields,
    created_at: UtcTimestamp,
    updated_at: UtcTimestamp,
  })
  .check(
    z.meta({
      id: 'Execution',
      description:
        "One run of a workflow for a contact, or one send step of a journey's run (then `workflow_id` is the journey's id " +
        'and `run_id`, `step_id` and `journey_version` name the run, the step and the version).',
    }),
  );
export type ExecutionView = z.output<typeof ExecutionView>;

/** `journeys`: the client's running journeys' names (id → name), for the send steps of its own journeys. */
export function toExecutionView(e: ExecutionRecord, journeys?: ReadonlyMap<number, string>): ExecutionView {
  return {
    id: e.id,
    workflow_id: e.workflow_id,
    workflow_name: findWorkflow(e.workflow_id)?.name ?? journeys?.get(e.workflow_id) ?? null,
    contact_id: e.contact_id,
    event_id: e.event_id,
    status: e.status,
    status_text: STATUS_TEXT[e.status],
    reason: e.reason ?? null,
    goal_event_id: e.goal_event_id ?? null,
    is_test: e.is_test,
    attempt: e.attempt,
    retried_from: e.retried_from ?? null,
    scheduled_for: e.scheduled_for,
    processed_at: e.processed_at ?? null,
    sent_email_id: e.sent_email_id ?? null,
    ...journeyStepFieldsOf(e),
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
}

/** `data` of GET /client/executions. */
export const ExecutionList = z.object({ executions: z.array(ExecutionView), next_cursor: NextCursor });

/** Its `meta`: the page, and whether `total` is exact (the count stops 100 past the page). */
export const ExecutionListMeta = BoundedPageMeta;
export type ExecutionListMeta = BoundedPageMeta;

/** SPEC.md's Execution retry acknowledgement (OpenAPI `ExecutionRetry`): the new, queued execution. */
export const ExecutionRetryView = z
  .object({
    execution_id: z.int().check(z.gte(1), z.meta({ description: 'The new execution' })),
    queue_id: z.int().check(z.gte(1)),
    workflow_id: z.int().check(z.gte(1)),
    contact_id: z.int().check(z.gte(1)),
    is_test: z.boolean(),
    status: ExecutionStatusValue,
    status_text: statusText,
    reason: z.nullable(z.string()),
    processed_at: z.nullable(UtcTimestamp),
    retried_from: z.int().check(z.gte(1), z.meta({ description: 'The failed execution, now retried (7)' })),
  })
  .check(
    z.meta({ id: 'ExecutionRetry', description: 'The retry is queued; read the outcome from the execution list.' }),
  );
export type ExecutionRetryView = z.output<typeof ExecutionRetryView>;
