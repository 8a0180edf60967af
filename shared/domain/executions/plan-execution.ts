import { DateTime } from 'luxon';
import type { ContactRecord } from '../contacts/contact-store.js';
import { computeSendTime, NoSendTimeError, resolvePreferredTime, sendRulesOf, sendZoneOf } from '../scheduling/send-time.js';
import type { SettingsRecord } from '../settings/settings-store.js';
import { SEND_TIME_MODES, type WorkflowDefinition } from '../workflows/catalog.js';
import { overridesOf, sendTimeModeOf, type CustomizationRecord } from '../workflows/customization.js';

export interface ExecutionPlan {
  scheduledFor: Date;
  /** False when the send window, weekdays and quiet hours leave no time at all (the execution is skipped). */
  sendable: boolean;
  /** Why the send time moved from the due time (preferred time, window, weekday, quiet hours). */
  reason?: string;
  templateId: number;
  priorityScore: number;
  /** The contact's local day of the send (its daily cap counter). */
  capDay: string;
}

/**
 * When and with what an execution sends (DESIGN.md §8 "Send time"): due = event ts + effective delay
 * (customization → catalog); in mode 1 the preferred time of day; then the send window, allowed weekdays and quiet
 * hours, all in the contact's time zone (→ the client's → UTC).
 */
export function planExecution(input: {
  workflow: WorkflowDefinition;
  customization: CustomizationRecord | undefined;
  settings: SettingsRecord | undefined;
  contact: ContactRecord;
  eventTs: string;
}): ExecutionPlan {
  const { workflow, settings, contact } = input;
  const overrides = overridesOf(input.customization);
  const delayMinutes = overrides.delay_minutes ?? workflow.default_delay_minutes;
  const due = new Date(Date.parse(input.eventTs) + delayMinutes * 60_000);
  const zone = sendZoneOf(contact.timezone, settings?.timezone);
  const preferred =
    sendTimeModeOf(overrides, workflow) === SEND_TIME_MODES.preferredTime
      ? resolvePreferredTime(overrides, workflow, settings)
      : undefined;
  let sendTime: { at: Date; reason?: string };
  let sendable = true;
  try {
    sendTime = computeSendTime({ due, zone, preferred, ...sendRulesOf(settings) });
  } catch (error) {
    if (!(error instanceof NoSendTimeError)) throw error;
    sendTime = { at: due, reason: error.reason };
    sendable = false;
  }
  const { at, reason } = sendTime;
  return {
    scheduledFor: at,
    sendable,
    ...(reason ? { reason } : {}),
    templateId: overrides.template_id ?? workflow.default_template_id,
    priorityScore: overrides.priority_score ?? workflow.default_priority_score,
    capDay: DateTime.fromJSDate(at, { zone }).toISODate()!,
  };
}
