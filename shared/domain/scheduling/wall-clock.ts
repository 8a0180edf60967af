import type { IANAZone } from 'luxon';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/**
 * Local time as plain arithmetic: a "wall" value is the local date and time encoded as if it were UTC
 * (`Date.UTC(y, m, d, h, min)`), so adding hours or days to it never meets a DST transition.
 */
export interface ClockReading {
  /** The local date and time as a wall value. */
  wall: number;
  /** ISO weekday: 1 Monday … 7 Sunday. */
  isoWeekday: number;
  hour: number;
  minute: number;
}

/** The weekday, hour and minute of a wall value. */
export function readWall(wall: number): ClockReading {
  const local = new Date(wall);
  return { wall, isoWeekday: local.getUTCDay() || 7, hour: local.getUTCHours(), minute: local.getUTCMinutes() };
}

/** What a clock in `zone` shows at the instant `ts` (epoch ms). */
export const readClock = (zone: IANAZone, ts: number, offsetMinutes = zone.offset(ts)): ClockReading =>
  readWall(ts + offsetMinutes * MINUTE_MS);

/** Midnight of the wall value's local date. */
export const startOfWallDay = (wall: number): number => Math.floor(wall / DAY_MS) * DAY_MS;

/**
 * The instants at which clocks in `zone` show `wall`, earliest first (DESIGN.md §8):
 * - usually one;
 * - two on a fall-back night (01:30 happens twice); callers take the first that suits them, so the earlier wins;
 * - none in a spring-forward gap: then the one instant read with the offset in force before the gap, which moves
 *   the time forward by the gap's length (New York 2026-03-08 02:30 → 03:30 EDT), as luxon and Temporal do.
 * Offsets a day either side bracket any transition near `wall` (zones move at most once a day).
 */
export function instantsShowing(zone: IANAZone, wall: number): number[] {
  const offsets = [...new Set([zone.offset(wall - DAY_MS), zone.offset(wall), zone.offset(wall + DAY_MS)])];
  const valid = offsets.map((o) => wall - o * MINUTE_MS).filter((ts) => readClock(zone, ts).wall === wall);
  if (valid.length > 0) return [...new Set(valid)].sort((a, b) => a - b);
  return [wall - Math.min(...offsets) * MINUTE_MS];
}
