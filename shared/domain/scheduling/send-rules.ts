import type { SettingsFields } from '../settings/settings-store.js';
import { hourInRange, type HourRange } from './hour-range.js';
import type { ClockReading } from './wall-clock.js';

/**
 * The client's limits on when e-mail may go out, all read on the contact's clock (DESIGN.md §5):
 * - `sendWindow`: hours of the day (start inclusive, end exclusive, may cross midnight). Only a start → until
 *   midnight; only an end → from midnight; neither, or start === end → every hour.
 * - `allowedDays`: ISO weekdays 1 (Monday) … 7 (Sunday); absent → every day; empty → never (an impossible rule).
 * - `quietHours`: hours when nothing goes out (start inclusive, end exclusive, may cross midnight: 22–7);
 *   start === end → no quiet hours.
 */
export interface SendRules {
  sendWindow?: { startHour?: number; endHour?: number };
  allowedDays?: readonly number[];
  quietHours?: { start: number; end: number };
}

/** Why a send time moved, for the execution's `reason`. */
export const SEND_TIME_REASONS = {
  preferredTime: 'preferred_time',
  weekday: 'weekday',
  sendWindow: 'send_window',
  quietHours: 'quiet_hours',
  /** Send time mode 2: the contact's own open hours chose the time. */
  contactOpenHours: 'contact_open_hours',
  /** Mode 2: the contact had too few opens; the client's aggregate open hours chose the time. */
  clientOpenHours: 'client_open_hours',
  /** Mode 2 without any open history and without a preferred time: sent as soon as the rules allow. */
  noOpenHistory: 'no_open_history',
} as const;
export type SendTimeReason = (typeof SEND_TIME_REASONS)[keyof typeof SEND_TIME_REASONS];
export type RuleReason = (typeof SEND_TIME_REASONS)['weekday' | 'sendWindow' | 'quietHours'];

/** "1,2,3,4,5" → [1, 2, 3, 4, 5]; entries that are not ISO weekdays are dropped (the setting is validated on write). */
export function parseAllowedDays(days: string): number[] {
  const parsed = days.split(',').map((d) => Number(d.trim()));
  return [...new Set(parsed.filter((d) => Number.isInteger(d) && d >= 1 && d <= 7))].sort((a, b) => a - b);
}

/**
 * The rules a client's settings set. `send_window_enabled` switches the whole send window, hours and
 * `send_window_allowed_days` alike (they are the window's fields); quiet hours apply whenever both bounds are set
 * (one bound alone means nothing: the other cannot be guessed).
 */
export function sendRulesOf(settings: SettingsFields | undefined): SendRules {
  const rules: SendRules = {};
  if (settings?.send_window_enabled === true) {
    rules.sendWindow = {
      ...(settings.send_window_start_hour !== undefined ? { startHour: settings.send_window_start_hour } : {}),
      ...(settings.send_window_end_hour !== undefined ? { endHour: settings.send_window_end_hour } : {}),
    };
    if (settings.send_window_allowed_days !== undefined) {
      const days = parseAllowedDays(settings.send_window_allowed_days);
      // A stored value with no valid day is corrupt, not a wish never to send: fall back to every day.
      if (days.length > 0) rules.allowedDays = days;
    }
  }
  if (settings?.quiet_hour_start !== undefined && settings.quiet_hour_end !== undefined) {
    rules.quietHours = { start: settings.quiet_hour_start, end: settings.quiet_hour_end };
  }
  return rules;
}

/** The send window's hours as a range, or undefined when it restricts no hour. */
function windowRange(window: SendRules['sendWindow']): HourRange | undefined {
  if (!window) return undefined;
  const range = { start: window.startHour ?? 0, end: window.endHour ?? 24 };
  return range.start === range.end || (range.start === 0 && range.end === 24) ? undefined : range;
}

/** The first rule (weekday, then send window, then quiet hours) that forbids sending at this reading, if any. */
export function blockedBy(rules: SendRules, reading: ClockReading): RuleReason | undefined {
  if (rules.allowedDays && !rules.allowedDays.includes(reading.isoWeekday)) return SEND_TIME_REASONS.weekday;
  const window = windowRange(rules.sendWindow);
  if (window && !hourInRange(window, reading.hour)) return SEND_TIME_REASONS.sendWindow;
  const quiet = rules.quietHours;
  if (quiet && quiet.start !== quiet.end && hourInRange(quiet, reading.hour)) return SEND_TIME_REASONS.quietHours;
  return undefined;
}

const isHour = (h: unknown) => Number.isInteger(h) && (h as number) >= 0 && (h as number) <= 23;

/** Rejects rules no validated setting can produce (a programming error, not bad client data). */
export function assertSendRules(rules: SendRules): void {
  const { sendWindow, allowedDays, quietHours } = rules;
  const bad =
    (sendWindow?.startHour !== undefined && !isHour(sendWindow.startHour)) ||
    (sendWindow?.endHour !== undefined && !isHour(sendWindow.endHour)) ||
    (allowedDays !== undefined && !allowedDays.every((d) => Number.isInteger(d) && d >= 1 && d <= 7)) ||
    (quietHours !== undefined && !(isHour(quietHours.start) && isHour(quietHours.end)));
  if (bad) throw new RangeError('Send rules need hours 0–23 and ISO weekdays 1–7');
}
