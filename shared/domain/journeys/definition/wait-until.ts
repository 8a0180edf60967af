/**
 * When a `wait_until` step ends: the next time a clock in the contact's zone shows the step's time of day on an allowed
 * weekday. Luxon knows the zones' rules; the two DST cases are decided here, as the step's description states them.
 */
import { DateTime, IANAZone } from 'luxon';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** `HH:MM` → hour and minute; a string outside 00:00–23:59 is refused (the schema allows no other). */
function timeOfDay(time: string): { hour: number; minute: number } {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  if (!match) throw new RangeError(`Not a time of day HH:MM: ${time}`);
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

/** The local date and time as if it were UTC (plain arithmetic, no DST in between). */
const wallOf = (zone: IANAZone, ts: number): number => ts + zone.offset(ts) * MINUTE_MS;

/**
 * The instant clocks in `zone` show `wall`: the earlier of two on a fall-back night; none in a spring-forward gap,
 * where the first instant after it is taken (the clock's first reading past the gap: 02:30 → 03:00).
 */
function instantShowing(zone: IANAZone, wall: number): number {
  const offsets = new Set([zone.offset(wall - DAY_MS), zone.offset(wall), zone.offset(wall + DAY_MS)]);
  const showing = [...offsets].map((o) => wall - o * MINUTE_MS).filter((ts) => wallOf(zone, ts) === wall);
  if (showing.length > 0) return Math.min(...showing);
  // In a gap: the first whole minute after it that a clock shows (zones move on whole minutes; a gap is at most a day).
  for (let later = wall + MINUTE_MS; later <= wall + DAY_MS; later += MINUTE_MS) {
    const found = [...offsets].map((o) => later - o * MINUTE_MS).filter((ts) => wallOf(zone, ts) === later);
    if (found.length > 0) return Math.min(...found);
  }
  throw new RangeError(`No instant shows ${new Date(wall).toISOString()} in ${zone.name}`);
}

/**
 * The first instant strictly after `after` at which a clock in `zone` shows `time` (`HH:MM`) on an allowed ISO
 * weekday (1 Monday … 7 Sunday; absent or empty: any day). A day's time counts once: on a fall-back night its earlier
 * occurrence (once past, the day's time has passed); a time a spring-forward gap skips is taken at the first instant
 * after the gap (Europe/Berlin 2026-03-29 02:30 → 03:00 CEST).
 */
export function nextLocalTime(after: Date, zone: string, time: string, weekdays?: readonly number[]): Date {
  const tz = IANAZone.create(zone);
  if (!tz.isValid) throw new RangeError(`Not a time zone: ${zone}`);
  const { hour, minute } = timeOfDay(time);
  const allowed = weekdays && weekdays.length > 0 ? new Set(weekdays) : undefined;
  const from = after.getTime();
  const today = Math.floor(wallOf(tz, from) / DAY_MS) * DAY_MS;
  // Today's time may have passed; an allowed weekday comes within the 7 days after.
  for (let day = 0; day <= 8; day++) {
    const date = today + day * DAY_MS;
    const isoWeekday = DateTime.fromMillis(date, { zone: 'utc' }).weekday;
    if (allowed && !allowed.has(isoWeekday)) continue;
    const at = instantShowing(tz, date + hour * 60 * MINUTE_MS + minute * MINUTE_MS);
    if (at > from) return new Date(at);
  }
  throw new RangeError(`No allowed weekday in ${JSON.stringify(weekdays)}`);
}
