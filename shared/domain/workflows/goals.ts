import { matchesTrigger, type TriggeringEvent, type WorkflowDefinition } from './catalog.js';
import type { CustomizationRecord } from './customization.js';

/**
 * Goals and exit conditions. An exit event of a workflow means its purpose is met or moot: the contact's
 * executions of it that are not claimed yet end cancelled (5) `goal_reached`, and one within the conversion window
 * after an e-mail of the workflow was sent to the contact is a conversion of it.
 */

/** In `exit_events`: any event of the contact (re-engagement's default). */
export const ANY_EVENT = '*';
/** The exit type an event with `upgrade: true` also counts as, whatever its own type (as upgrade thanks' trigger reads it). */
export const UPGRADE_EVENT = 'upgrade';
export { MAX_EXIT_EVENTS } from '../../public/workflow-rules.js';
export const DEFAULT_CONVERSION_WINDOW_DAYS = 7;
export const GOAL_REACHED = 'goal_reached';

/** The exit event types in force: the client's `exit_events`, or the catalog's default. */
export function exitEventsOf(
  workflow: WorkflowDefinition,
  customization: Pick<CustomizationRecord, 'exit_events'> | undefined,
): readonly string[] {
  return customization?.exit_events ?? workflow.default_exit_events;
}

export function conversionWindowDaysOf(
  customization: Pick<CustomizationRecord, 'conversion_window_days'> | undefined,
): number {
  return customization?.conversion_window_days ?? DEFAULT_CONVERSION_WINDOW_DAYS;
}

/** Whether `event` exits `workflow` under these exit types. An event that starts the workflow never exits it. */
export function exitsWorkflow(
  workflow: WorkflowDefinition,
  exitEvents: readonly string[],
  event: TriggeringEvent,
): boolean {
  if (matchesTrigger(workflow, event)) return false;
  return (
    exitEvents.includes(ANY_EVENT) ||
    exitEvents.includes(event.type) ||
    (event.upgrade === true && exitEvents.includes(UPGRADE_EVENT))
  );
}

/**
 * The last exit event of a workflow processed for a contact, kept on the contact item (`goal_w<workflow>`): the send-time
 * check compares it with the execution's creation.
 */
export interface GoalMark {
  at: string;
  event_id: number;
}

/** A queued execution the contact item lists (`open_<execution>`), so an exit event finds it without a query. */
export interface OpenExecution {
  execution_id: number;
  workflow_id: number;
  cap_day: string;
  critical: boolean;
  /** When it was dispatched for (its first `scheduled_for`): names its schedule, so a cancel can release it. */
  scheduled_for?: string;
}

/** The engine's attributes on a contact item (DynamoDB: top-level attributes; memory: the same keys). */
export type ContactGoalAttributes = Record<string, unknown>;

export const goalMarkAttribute = (workflowId: number): string => `goal_w${workflowId}`;
export const openExecutionAttribute = (executionId: number): string => `open_${executionId}`;
export const lastSentAttribute = (workflowId: number): string => `sent_w${workflowId}`;
export const convertedAttribute = (workflowId: number): string => `conv_w${workflowId}`;
/**
 * A journey's last e-mail to the contact: the send step and split arms it came from (`sentp_w<journey>`, set with
 * `sent_w<journey>`), so its conversion counts on that step and those arms without another read.
 */
export const lastSentPlaceAttribute = (workflowId: number): string => `sentp_w${workflowId}`;

/** Where a journey's e-mail was sent from: its send step and the split arms its run took (split id → arm name). */
export interface SendPlace {
  step_id?: string;
  arms?: Record<string, string>;
}

/** The place of the contact's last e-mail of this journey, as its item keeps it (nothing for the 8 workflows). */
export function lastSentPlaceOf(contact: object | undefined, workflowId: number): SendPlace | undefined {
  const value = (contact as ContactGoalAttributes | undefined)?.[lastSentPlaceAttribute(workflowId)];
  if (typeof value !== 'object' || value === null) return undefined;
  const { step_id, arms } = value as { step_id?: unknown; arms?: unknown };
  if (typeof step_id !== 'string') return undefined;
  const armsOk = typeof arms === 'object' && arms !== null && Object.values(arms).every((a) => typeof a === 'string');
  return { step_id, ...(armsOk ? { arms: { ...(arms as Record<string, string>) } } : {}) };
}

const isGoalMark = (value: unknown): value is GoalMark =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as GoalMark).at === 'string' &&
  typeof (value as GoalMark).event_id === 'number';

export function goalMarkOf(contact: object | undefined, workflowId: number): GoalMark | undefined {
  const value = (contact as ContactGoalAttributes | undefined)?.[goalMarkAttribute(workflowId)];
  return isGoalMark(value) ? value : undefined;
}

/**
 * The exit event that stops an execution at send time: one processed after the execution was created (strictly later:
 * an exit event processed before it does not stop a workflow started after it).
 */
export function goalReachedFor(
  contact: object | undefined,
  execution: { workflow_id: number; created_at: string },
): GoalMark | undefined {
  const mark = goalMarkOf(contact, execution.workflow_id);
  return mark && mark.at > execution.created_at ? mark : undefined;
}

/** The contact's queued executions as its item lists them (some may have moved on since: the cancel's condition tells). */
export function openExecutionsOf(contact: object | undefined): OpenExecution[] {
  if (!contact) return [];
  return Object.entries(contact as ContactGoalAttributes).flatMap(([name, value]) => {
    const match = /^open_(\d+)$/.exec(name);
    if (!match || typeof value !== 'object' || value === null) return [];
    const { w, d, c, s } = value as { w?: unknown; d?: unknown; c?: unknown; s?: unknown };
    if (typeof w !== 'number' || typeof d !== 'string') return [];
    return [
      {
        execution_id: Number(match[1]),
        workflow_id: w,
        cap_day: d,
        critical: c === true,
        ...(typeof s === 'string' ? { scheduled_for: s } : {}),
      },
    ];
  });
}

/**
 * Whether an exit of `workflowId` processed at `at` converts the contact's last e-mail of it: sent at most
 * `windowDays` before, and not converted yet (`conv_w<workflow>` holds the send time last converted: once per e-mail).
 * Returns that send time, or undefined.
 */
export function conversionOf(
  contact: object | undefined,
  workflowId: number,
  at: string,
  windowDays: number,
): string | undefined {
  const attributes = contact as ContactGoalAttributes | undefined;
  const sentAt = attributes?.[lastSentAttribute(workflowId)];
  if (typeof sentAt !== 'string' || attributes?.[convertedAttribute(workflowId)] === sentAt) return undefined;
  const age = Date.parse(at) - Date.parse(sentAt);
  return age >= 0 && age <= windowDays * 86_400_000 ? sentAt : undefined;
}

/** The stored form of an open execution (short names: it rides on every contact read). */
export const openExecutionValue = (
  e: Pick<OpenExecution, 'workflow_id' | 'cap_day' | 'critical' | 'scheduled_for'>,
) => ({
  w: e.workflow_id,
  d: e.cap_day,
  c: e.critical,
  ...(e.scheduled_for === undefined ? {} : { s: e.scheduled_for }),
});
