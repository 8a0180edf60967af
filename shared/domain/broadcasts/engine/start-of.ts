/**
 * When a broadcast starts, apart from the send rules (luxon's zones): the API that schedules a broadcast needs only
 * this, and its bundle stays small.
 */
/** When a broadcast goes out: at once, at an instant, or at a time of day in each recipient's own zone. */
export type BroadcastSchedule =
  | { mode: 'now' }
  | { mode: 'at'; send_at: string }
  | { mode: 'local_time'; date: string; time: string };

/** The zone east of every other: a `local_time` broadcast starts when its date begins there. */
export const EARLIEST_ZONE = 'UTC+14';

/**
 * When a broadcast's snapshot starts: `now` and `at` at their instant; `local_time` when `date` begins in UTC+14, so
 * that in every zone the chosen time of that date is still ahead when the recipients are written.
 */
export function startOf(schedule: BroadcastSchedule, now: Date): Date {
  if (schedule.mode === 'now') return now;
  if (schedule.mode === 'at') return new Date(schedule.send_at);
  // A fixed offset (no daylight saving): the date's midnight there is one instant.
  return new Date(`${schedule.date}T00:00:00+14:00`);
}
