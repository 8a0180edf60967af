/**
 * Hours of the local day, `start` inclusive and `end` exclusive, e.g. 9–17 (09:00–16:59). A range with
 * `start > end` crosses midnight (22–7 is 22:00–06:59); `start === end` restricts nothing (see send-rules.ts).
 * `end` may be 24 (until midnight).
 */
export interface HourRange {
  start: number;
  end: number;
}

/** Whether `hour` falls in a range that is not empty (callers treat `start === end` as "no range"). */
export function hourInRange(range: HourRange, hour: number): boolean {
  return range.start < range.end ? hour >= range.start && hour < range.end : hour >= range.start || hour < range.end;
}
