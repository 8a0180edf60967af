/**
 * The 8 catalog workflows as journeys: `[wait →] send → end`, with the client's customization in effect. The catalog
 * and the customization stay the source (the workflows run as they always did); this is how the journeys API shows
 * them, and what a copy of one starts from.
 */
import type { WorkflowDefinition } from '../../workflows/catalog.js';
import { overridesOf, sendTimeModeOf, type CustomizationRecord } from '../../workflows/customization.js';
import { conversionWindowDaysOf, exitEventsOf } from '../../workflows/goals.js';
import type { Condition, JourneyDefinition, JourneyStep, SendTime } from './types.js';

/** The step ids of a system journey. */
export const SYSTEM_STEP_IDS = { delay: 'delay', send: 'send' } as const;

export function systemJourneyOf(
  workflow: WorkflowDefinition,
  customization: CustomizationRecord | undefined,
): JourneyDefinition {
  const overrides = overridesOf(customization);
  const delay = overrides.delay_minutes ?? workflow.default_delay_minutes;
  const hour = overrides.preferred_send_hour;
  const sendTime: SendTime = {
    mode: sendTimeModeOf(overrides, workflow),
    // As the executor resolves it: the customization's hour (minute or :00), else the workflow's slot.
    ...(hour !== undefined
      ? { preferred_hour: hour, preferred_minute: overrides.preferred_send_minute ?? 0 }
      : workflow.default_send_slot
        ? { slot: workflow.default_send_slot }
        : {}),
  };
  const send: JourneyStep = {
    id: SYSTEM_STEP_IDS.send,
    name: workflow.name,
    type: 'send',
    template_id: overrides.template_id ?? workflow.default_template_id,
    priority_score: overrides.priority_score ?? workflow.default_priority_score,
    send_time: sendTime,
    next: null,
  };
  const steps: JourneyStep[] =
    delay > 0
      ? [{ id: SYSTEM_STEP_IDS.delay, type: 'wait', minutes: delay, next: SYSTEM_STEP_IDS.send }, send]
      : [send];
  const orWhen = workflow.trigger.or_when;
  const orWhenConditions: Condition[] | undefined = orWhen
    ? [{ on: 'event', path: orWhen.field, op: 'eq', value: orWhen.equals }]
    : undefined;
  const marketing = workflow.category === 'marketing';
  return {
    trigger: {
      event: workflow.trigger.event,
      ...(orWhenConditions ? { or_when: orWhenConditions } : {}),
      // A workflow starts an execution for every triggering event.
      reentry: { mode: 'always' },
    },
    entry: steps[0]!.id,
    steps,
    settings: {
      category: workflow.category,
      // A transactional workflow takes no topic (the customization refuses one; an old record may hold it).
      topic_id: marketing ? (overrides.topic_id ?? null) : null,
      critical: workflow.critical,
      exit_events: [...exitEventsOf(workflow, overrides)],
      conversion_window_days: conversionWindowDaysOf(overrides),
    },
  };
}
