import { IANAZone } from 'luxon';
import { firstAllowedInstant } from './allowed-instant.js';
import { optimalSendTime, type OpenHoursBasis } from './optimal-time.js';
import { assertPreferredTime, nextPreferredTime, preferredOnDay, type PreferredTime } from './preferred-time.js';
import { assertSendRules, blockedBy, SEND_TIME_REASONS, type SendRules, type SendTimeReason } from './send-rules.js';
import { sendZoneOf } from './send-zone.js';
import { DAY_MS, readClock } from './wall-clock.js';

export { chooseOpenHours, MIN_CLIENT_OPENS, MIN_CONTACT_OPENS, type OpenHoursBasis } from './optimal-time.js';
export { resolvePreferredTime, type PreferredTime } from './preferred-time.js';
export { SEND_TIME_REASONS, sendRulesOf, type SendRules, type SendTimeReason } from './send-rules.js';
export { sendZoneOf } from './send-zone.js';

export interface SendTimeInput extends SendRules {
  /** Event `ts` + the effective delay (customization → catalog default). */
  due: Date;
  /** The contact's zone (→ client → UTC, see `sendZoneOf`); an invalid or absent name reads as UTC. */
  zone?: string;
  /** Send time mode 1: the resolved preferred time of day (`resolvePreferredTime`); absent in mode 0. */
  preferred?: PreferredTime;
  /** Send time mode 2: the open-hour histogram to follow (`chooseOpenHours`); never together with `preferred`. */
  openHours?: OpenHoursBasis;
}

export interface SendTime {
  at: Date;
  /**
   * Set when `at` is later than `due`: which rule moved it (the first that forbade the first candidate); in mode 2
   * whenever an open-hour histogram chose `at` (`contact_open_hours`, `client_open_hours`).
   */
  reason?: SendTimeReason;
}

/** The rules leave no instant to send in (e.g. a send window inside the quiet hours); the caller skips the send. */
export class NoSendTimeError extends Error {
  readonly reason = 'no_send_time';
  constructor(readonly zone: string) {
    super(`The send window, allowed days and quiet hours leave no time to send in ${zone}`);
    this.name = 'NoSendTimeError';
  }
}

/** Weekly rules repeat every 7 days; one more covers DST shifts. Nothing allowed by then → never. */
const SEARCH_MS = 8 * DAY_MS;

/**
 * When an execution sends (DESIGN.md §8 "Send time"), in the contact's zone:
 * 1. `due`;
 * 2. in mode 1 (`preferred` given), the first preferred hour:minute at or after it;
 * 3. the first instant from there on an allowed weekday, inside the send window and outside quiet hours — these
 *    apply in every mode. When they push the send to a later local day in mode 1, it goes out at that day's
 *    preferred time if the rules allow it (Friday evening, weekdays only, 09:00 preferred → Monday 09:00, not 00:00).
 * In mode 2 (`openHours` given), steps 1 and 3 give the earliest allowed instant; the e-mail then goes at the most
 * likely open hour the rules allow within 24 h of it (`optimalSendTime`), or at that earliest instant when none does.
 * Spring-forward gaps move a wall time forward by the gap (02:30 → 03:30); fall-back keeps the earlier instant.
 * @throws NoSendTimeError when nothing is allowed within 8 days; RangeError on an invalid date, hour or weekday.
 */
export function computeSendTime(input: SendTimeInput): SendTime {
  if (input.openHours) return computeOptimalSendTime(input, input.openHours);
  const due = input.due.getTime();
  if (!Number.isFinite(due)) throw new RangeError('due must be a valid date');
  assertSendRules(input);
  if (input.preferred) assertPreferredTime(input.preferred);
  const zoneName = sendZoneOf(input.zone);
  const zone = IANAZone.create(zoneName);

  const first = input.preferred ? nextPreferredTime(zone, due, input.preferred) : due;
  const blocked = blockedBy(input, readClock(zone, first));
  if (!blocked) {
    return first === due ? { at: new Date(due) } : { at: new Date(first), reason: SEND_TIME_REASONS.preferredTime };
  }
  let at = firstAllowedInstant(zone, input, first, SEARCH_MS);
  if (at === undefined) throw new NoSendTimeError(zoneName);
  if (input.preferred) {
    const preferred = preferredOnDay(zone, readClock(zone, at).wall, input.preferred, at);
    if (preferred !== undefined && !blockedBy(input, readClock(zone, preferred))) at = preferred;
  }
  return { at: new Date(at), reason: blocked };
}

/** Mode 2: the earliest allowed instant (modes 0's rule), then the most likely open hour from there. */
function computeOptimalSendTime(input: SendTimeInput, basis: OpenHoursBasis): SendTime {
  if (input.preferred) throw new RangeError('A send time follows a preferred time or open hours, not both');
  const earliest = computeSendTime({ ...input, openHours: undefined });
  const zone = IANAZone.create(sendZoneOf(input.zone));
  const at = optimalSendTime(zone, input, earliest.at.getTime(), basis.hours);
  if (at === undefined) return earliest;
  const reason = basis.source === 'contact' ? SEND_TIME_REASONS.contactOpenHours : SEND_TIME_REASONS.clientOpenHours;
  return { at: new Date(at), reason };
}
