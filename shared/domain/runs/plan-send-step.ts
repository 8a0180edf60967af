import type { ContactRecord } from '../contacts/contact-store.js';
import { EXECUTION_STATUS, type ExecutionEventVars, type ExecutionRecord } from '../executions/execution-record.js';
import { planExecution } from '../executions/plan-execution.js';
import type { SendStep } from '../journeys/definition/types.js';
import type { IndexedJourney } from '../journeys/journey-records.js';
import { segmentEventType } from '../segments/segment-events.js';
import type { SettingsRecord } from '../settings/settings-store.js';
import type { OpenHours } from '../tracking/open-hours.js';
import type { WorkflowDefinition } from '../workflows/catalog.js';
import type { CustomizationRecord } from '../workflows/customization.js';
import type { RunRecord } from './run-record.js';

/** A send step's priority when it names none (as the cap's default for a workflow without one). */
export const DEFAULT_SEND_PRIORITY = 50;

/**
 * The send step as the workflow planExecution plans (delay 0 from now, its send time, priority and template) and the
 * overrides that carry its preferred time: the same send time rules as the 8 workflows', with no second copy of them.
 */
function asWorkflow(
  journey: IndexedJourney,
  step: SendStep,
): { workflow: WorkflowDefinition; customization: CustomizationRecord } {
  const { mode, preferred_hour: hour, preferred_minute: minute, slot } = step.send_time;
  return {
    workflow: {
      id: journey.id,
      key: `journey-${journey.id}`,
      name: journey.name,
      description: '',
      trigger: { event: triggerEventOf(journey.trigger) },
      default_delay_minutes: 0,
      default_send_time_mode: mode,
      default_send_slot: slot ?? null,
      critical: journeyIsCritical(journey),
      default_priority_score: step.priority_score ?? DEFAULT_SEND_PRIORITY,
      default_template_id: step.template_id,
      default_exit_events: journey.settings.exit_events,
      category: journey.settings.category,
    },
    customization: {
      workflow_id: journey.id,
      send_time_mode: mode,
      ...(hour !== undefined ? { preferred_send_hour: hour, preferred_send_minute: minute ?? 0 } : {}),
    },
  };
}

/** The event type a run's trigger names: a segment trigger's is the membership engine's event. */
const triggerEventOf = (trigger: IndexedJourney['trigger']): string =>
  trigger.event ?? segmentEventType(trigger.segment?.on ?? 'enter');

/** `critical` counts only on transactional mail (validation refuses it elsewhere; this keeps an old version honest). */
const journeyIsCritical = (journey: IndexedJourney): boolean =>
  journey.settings.critical && journey.settings.category === 'transactional';

/** The run's trigger event as a template reads it (`it.event.*`): the execution's copy, without the payload. */
function eventVarsOf(event: RunRecord['event']): ExecutionEventVars {
  const { payload: _payload, ...vars } = event;
  return vars;
}

/**
 * The execution a send step creates: planned from now as a workflow's from its event (send time mode, window, quiet
 * hours, the contact's zone), queued — or skipped when the rules leave no time to send — and naming its run, the
 * run's seq after this transition (the executor's wake carries it back), its step and version, and the journey's
 * category and topic, so the executor reads no journey.
 */
export function planSendStep(input: {
  id: number;
  run: RunRecord;
  /** The run's seq once the transition creating the execution is written. */
  runSeq: number;
  version: number;
  journey: IndexedJourney;
  step: SendStep;
  contact: ContactRecord;
  settings: SettingsRecord | undefined;
  clientOpenHours: OpenHours | undefined;
  now: Date;
}): ExecutionRecord {
  const { run, journey, step, now } = input;
  const { workflow, customization } = asWorkflow(journey, step);
  const plan = planExecution({
    workflow,
    customization,
    settings: input.settings,
    contact: input.contact,
    eventTs: now.toISOString(),
    ...(input.clientOpenHours ? { clientOpenHours: input.clientOpenHours } : {}),
  });
  const at = now.toISOString();
  return {
    id: input.id,
    client_id: run.client_id,
    workflow_id: journey.id,
    contact_id: run.contact_id,
    event_id: run.event_id,
    status: plan.sendable ? EXECUTION_STATUS.queued : EXECUTION_STATUS.skipped,
    ...(plan.sendable ? {} : { processed_at: at }),
    ...(plan.reason ? { reason: plan.reason } : {}),
    is_test: false,
    attempt: 1,
    template_id: plan.templateId,
    priority_score: plan.priorityScore,
    critical: workflow.critical,
    cap_day: plan.capDay,
    send_zone: plan.zone,
    event: eventVarsOf(run.event),
    scheduled_for: plan.scheduledFor.toISOString(),
    run_id: run.id,
    run_seq: input.runSeq,
    step_id: step.id,
    ...armsOf(run),
    journey_version: input.version,
    category: journey.settings.category,
    ...(journey.settings.topic_id !== null ? { topic_id: journey.settings.topic_id } : {}),
    created_at: at,
    updated_at: at,
  };
}

/** The arms the run took at the splits it passed, by the split's id: the arm's name its path entry left by. */
function armsOf(run: RunRecord): { arms?: Record<string, string> } {
  const arms: Record<string, string> = {};
  for (const entry of run.path)
    if (run.arms[entry.step] !== undefined && entry.via !== undefined) arms[entry.step] = entry.via;
  return Object.keys(arms).length > 0 ? { arms } : {};
}
