import type { IANAZone } from 'luxon';
import { SETTINGS_DEFAULTS } from '../settings/effective-settings.js';
import type { SettingsFields } from '../settings/settings-store.js';
import type { WorkflowDefinition } from '../workflows/catalog.js';
import type { Overrides } from '../workflows/customization.js';
import { DAY_MS, HOUR_MS, instantsShowing, MINUTE_MS, readClock, startOfWallDay } from './wall-clock.js';

/** A local time of day, hour 0–23 and minute 0–59. */
export interface PreferredTime {
  hour: number;
  minute: number;
}

/**
 * The time of day a workflow in send time mode 1 sends at, first found of:
 * 1. the client's customization (`preferred_send_hour`, with `preferred_send_minute` or :00; a minute without an
 *    hour is ignored, as the customization view shows it);
 * 2. the client's slot the workflow names (`default_send_slot`: morning, or afternoon), hour and minute each
 *    falling back to the slot's default (morning 09:00, afternoon 14:00); a workflow without a slot uses morning;
 * 3. 09:00 (the morning default).
 */
export function resolvePreferredTime(
  overrides: Overrides,
  workflow: Pick<WorkflowDefinition, 'default_send_slot'>,
  settings: SettingsFields | undefined,
): PreferredTime {
  if (overrides.preferred_send_hour !== undefined) {
    return { hour: overrides.preferred_send_hour, minute: overrides.preferred_send_minute ?? 0 };
  }
  if (workflow.default_send_slot === 'afternoon') {
    return {
      hour: settings?.afternoon_send_hour ?? SETTINGS_DEFAULTS.afternoon_send_hour,
      minute: settings?.afternoon_send_minute ?? SETTINGS_DEFAULTS.afternoon_send_minute,
    };
  }
  return {
    hour: settings?.morning_send_hour ?? SETTINGS_DEFAULTS.morning_send_hour,
    minute: settings?.morning_send_minute ?? SETTINGS_DEFAULTS.morning_send_minute,
  };
}

export function assertPreferredTime(time: PreferredTime): void {
  const { hour, minute } = time;
  if (!Number.isInteger(hour) || hour < 0 || hour > 23 || !Number.isInteger(minute) || minute < 0 || minute > 59) {
    throw new RangeError('A preferred time needs an hour 0–23 and a minute 0–59');
  }
}

/**
 * The first instant at or after `from` at which clocks in `zone` show the preferred time on `dayWall`'s local date
 * (a fall-back night offers two; a spring-forward gap moves it forward by the gap), or undefined when both are
 * earlier than `from`.
 */
export function preferredOnDay(zone: IANAZone, dayWall: number, time: PreferredTime, from: number): number | undefined {
  const wall = startOfWallDay(dayWall) + time.hour * HOUR_MS + time.minute * MINUTE_MS;
  return instantsShowing(zone, wall).find((ts) => ts >= from);
}

/** The first instant at or after `from` showing the preferred time in `zone`: today's, else tomorrow's. */
export function nextPreferredTime(zone: IANAZone, from: number, time: PreferredTime): number {
  const today = readClock(zone, from).wall;
  // Tomorrow's wall time is later than `from`'s reading, so it qualifies; the third day only guards exotic zones.
  for (let day = 0; day < 3; day++) {
    const found = preferredOnDay(zone, today + day * DAY_MS, time, from);
    if (found !== undefined) return found;
  }
  return from + DAY_MS;
}
