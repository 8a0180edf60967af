import { DateTime } from 'luxon';
import {
  computeSendTime,
  NoSendTimeError,
  sendRulesOf,
  sendZoneOf,
  type SendRules,
} from '../../scheduling/send-time.js';
import type { SettingsFields } from '../../settings/settings-store.js';

export { type BroadcastSchedule, EARLIEST_ZONE, startOf } from './start-of.js';
import type { BroadcastSchedule } from './start-of.js';

export interface RecipientDue {
  /** The instant the recipient may be sent (the pacer releases it from then on). */
  at: Date;
  /** The zone it was read in (contact → client → UTC). */
  zone: string;
  /** The recipient's local day of `at`: its daily cap counter. */
  capDay: string;
  /** Which rule moved it past its schedule (preferred_time, send_window, quiet_hours, weekday). */
  reason?: string;
  /** False when the send window, weekdays and quiet hours leave no time at all: the recipient is skipped. */
  sendable: boolean;
}

/**
 * A recipient's due time: `now` → the broadcast's start; `at` → its instant; `local_time` → the first `time` on or
 * after `date` in the recipient's zone that is not before the start (a zone whose hour had passed when the broadcast
 * started gets the next day's). Then the client's send window, allowed weekdays and quiet hours, read on the
 * recipient's clock (computeSendTime, the rule every send follows). Spring-forward gaps move the time forward by the
 * gap; fall-back nights take the earlier instant.
 */
export function dueOf(input: {
  schedule: BroadcastSchedule;
  startedAt: Date;
  /** The contact's zone (absent or invalid: the client's, then UTC). */
  contactZone?: string | null;
  settings: SettingsFields | undefined;
}): RecipientDue {
  const zone = sendZoneOf(input.contactZone, input.settings?.timezone);
  const rules: SendRules = sendRulesOf(input.settings);
  const { schedule, startedAt } = input;
  let due: Date;
  let preferred: { hour: number; minute: number } | undefined;
  if (schedule.mode === 'local_time') {
    const dayStart = DateTime.fromISO(schedule.date, { zone }).startOf('day').toMillis();
    due = new Date(Math.max(startedAt.getTime(), dayStart));
    const [hour, minute] = schedule.time.split(':').map(Number) as [number, number];
    preferred = { hour, minute };
  } else {
    due = schedule.mode === 'at' ? new Date(Math.max(Date.parse(schedule.send_at), startedAt.getTime())) : startedAt;
  }
  try {
    const { at, reason } = computeSendTime({ due, zone, ...(preferred ? { preferred } : {}), ...rules });
    // The time of day asked for is the broadcast's own: it is no reason worth showing.
    const moved = reason && reason !== 'preferred_time' ? { reason } : {};
    return { at, zone, capDay: localDay(at, zone), sendable: true, ...moved };
  } catch (error) {
    if (!(error instanceof NoSendTimeError)) throw error;
    return { at: due, zone, capDay: localDay(due, zone), sendable: false, reason: error.reason };
  }
}

/**
 * A recipient deferred to the next quota window: its due time again under the contact's send rules from `when`
 * (a spill to 00:00 UTC must not land in the recipient's quiet hours).
 */
export function dueAfter(when: Date, zone: string, settings: SettingsFields | undefined): Date {
  try {
    return computeSendTime({ due: when, zone, ...sendRulesOf(settings) }).at;
  } catch (error) {
    if (error instanceof NoSendTimeError) return when;
    throw error;
  }
}

const localDay = (at: Date, zone: string): string => DateTime.fromJSDate(at, { zone }).toISODate()!;
