import { DateTime } from 'luxon';
import type { ContactRecord } from '../contacts/contact-store.js';
import {
  chooseOpenHours,
  computeSendTime,
  NoSendTimeError,
  resolvePreferredTime,
  SEND_TIME_REASONS,
  sendRulesOf,
  sendZoneOf,
  type SendTimeInput,
} from '../scheduling/send-time.js';
import type { SettingsRecord } from '../settings/settings-store.js';
import { openHoursOf, type OpenHours } from '../tracking/open-hours.js';
import { SEND_TIME_MODES, type WorkflowDefinition } from '../workflows/catalog.js';
import { overridesOf, sendTimeModeOf, type CustomizationRecord, type Overrides } from '../workflows/customization.js';

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
  /** The zone the send time was read in (contact → client → UTC); opens of the e-mail are counted in it. */
  zone: string;
}

/**
 * When and with what an execution sends (DESIGN.md §8 "Send time"): due = event ts + effective delay
 * (customization → catalog); in mode 1 the preferred time of day; then the send window, allowed weekdays and quiet
 * hours, all in the contact's time zone (→ the client's → UTC). Mode 2 sends at the most likely open
 * hour of the contact's histogram (≥ 3 human opens), else of the client's aggregate, else at the preferred time when
 * one applies, else as soon as the rules allow; `reason` names the rule that chose.
 */
export function planExecution(input: {
  workflow: WorkflowDefinition;
  customization: CustomizationRecord | undefined;
  settings: SettingsRecord | undefined;
  contact: ContactRecord;
  eventTs: string;
  /** The client's aggregate open-hour histogram (mode 2's fallback); absent when the client has none. */
  clientOpenHours?: OpenHours;
}): ExecutionPlan {
  const { workflow, settings, contact } = input;
  const overrides = overridesOf(input.customization);
  const delayMinutes = overrides.delay_minutes ?? workflow.default_delay_minutes;
  const due = new Date(Date.parse(input.eventTs) + delayMinutes * 60_000);
  const zone = sendZoneOf(contact.timezone, settings?.timezone);
  const timing = sendTimingOf(input, overrides);
  let sendTime: { at: Date; reason?: string };
  let sendable = true;
  try {
    sendTime = computeSendTime({ due, zone, ...timing.input, ...sendRulesOf(settings) });
    if (!sendTime.reason && timing.reason) sendTime = { ...sendTime, reason: timing.reason };
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
    zone,
  };
}

/**
 * What decides the time of day in the workflow's send time mode, and the reason to give when the rules did not move
 * it: mode 1 the preferred time; mode 2 the contact's or the client's open hours, else the preferred time when the
 * customization sets an hour or the workflow has a send slot (`preferred_time`), else nothing (`no_open_history`).
 */
function sendTimingOf(
  input: Parameters<typeof planExecution>[0],
  overrides: Overrides,
): { input: Pick<SendTimeInput, 'preferred' | 'openHours'>; reason?: string } {
  const { workflow, settings } = input;
  const mode = sendTimeModeOf(overrides, workflow);
  if (mode === SEND_TIME_MODES.preferredTime)
    return { input: { preferred: resolvePreferredTime(overrides, workflow, settings) } };
  if (mode !== SEND_TIME_MODES.optimal) return { input: {} };
  const openHours = chooseOpenHours(openHoursOf(input.contact), input.clientOpenHours);
  if (openHours) return { input: { openHours } };
  if (overrides.preferred_send_hour !== undefined || workflow.default_send_slot !== null) {
    return {
      input: { preferred: resolvePreferredTime(overrides, workflow, settings) },
      reason: SEND_TIME_REASONS.preferredTime,
    };
  }
  return { input: {}, reason: SEND_TIME_REASONS.noOpenHistory };
}
