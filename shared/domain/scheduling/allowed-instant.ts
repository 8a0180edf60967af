import type { IANAZone } from 'luxon';
import { blockedBy, SEND_TIME_REASONS, type SendRules } from './send-rules.js';
import { DAY_MS, HOUR_MS, MINUTE_MS, readClock, readWall, startOfWallDay } from './wall-clock.js';

const QUARTER_HOUR_MS = 15 * MINUTE_MS;

/**
 * The earliest instant at or after `from` that the rules allow, looking no further than `searchMs`; undefined when
 * there is none. Between offset changes local time is plain arithmetic, so the next allowed wall hour is found
 * without asking the zone (each lookup costs ~15 µs); the zone is asked only to confirm the offset still holds and,
 * when it does not, to find the change (a binary search on quarter hours, where zones change offset).
 */
export function firstAllowedInstant(
  zone: IANAZone,
  rules: SendRules,
  from: number,
  searchMs: number,
): number | undefined {
  const until = from + searchMs;
  let ts = from;
  let offset = zone.offset(ts);
  while (ts <= until) {
    const reading = readClock(zone, ts, offset);
    if (!blockedBy(rules, reading)) return ts;
    const wall = nextAllowedWall(rules, reading.wall, reading.wall + searchMs);
    if (wall === undefined) return undefined;
    const candidate = wall - offset * MINUTE_MS;
    if (zone.offset(candidate) === offset) {
      // Same offset at both ends: every instant before the candidate read a blocked wall time.
      ts = candidate;
      continue;
    }
    // The readings held only up to the offset change: carry on from there.
    ts = offsetChange(zone, ts, candidate, offset);
    offset = zone.offset(ts);
  }
  return undefined;
}

/** The first whole wall hour after `wall` (and up to `limit`) the rules allow; blocked weekdays are skipped whole. */
function nextAllowedWall(rules: SendRules, wall: number, limit: number): number | undefined {
  for (let w = Math.floor(wall / HOUR_MS) * HOUR_MS + HOUR_MS; w <= limit; ) {
    const blocked = blockedBy(rules, readWall(w));
    if (!blocked) return w;
    w = blocked === SEND_TIME_REASONS.weekday ? startOfWallDay(w) + DAY_MS : w + HOUR_MS;
  }
  return undefined;
}

/** The first quarter hour after `after` (offset `offset`) and at or before `before` (another offset) with a new offset. */
function offsetChange(zone: IANAZone, after: number, before: number, offset: number): number {
  let lo = Math.floor(after / QUARTER_HOUR_MS);
  let hi = Math.ceil(before / QUARTER_HOUR_MS);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (zone.offset(mid * QUARTER_HOUR_MS) === offset) lo = mid;
    else hi = mid;
  }
  const change = hi * QUARTER_HOUR_MS;
  // Two changes in one stretch (no zone does this) would break the search's premise: step past `after` regardless.
  return change > after ? change : after + QUARTER_HOUR_MS;
}
