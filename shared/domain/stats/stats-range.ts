import { invalidField } from '../../errors.js';
import { DEFAULT_STATS_DAYS, MAX_STATS_DAYS } from './schemas.js';
import { utcDayOf } from '../time/utc-days.js';

const DAY_MS = 86_400_000;
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/**
 * The days asked: `to` defaults to today (UTC), `from` to 29 days before it; at most MAX_STATS_DAYS days. UTC days
 * are each 24 hours, so plain day arithmetic holds (no zone, no DST); its own module keeps luxon out of the routes
 * that only need the range.
 */
export function rangeOf(
  query: { from?: string | undefined; to?: string | undefined },
  now: Date,
): { from: string; to: string } {
  const to = query.to ?? utcDayOf(now);
  const from = query.from ?? utcDayOf(dayStart(to) - (DEFAULT_STATS_DAYS - 1) * DAY_MS);
  if (from > to) throw invalidField('min', 'to', 'Must not be before from');
  const days = Math.round((dayStart(to) - dayStart(from)) / DAY_MS) + 1;
  if (days > MAX_STATS_DAYS)
    throw invalidField('max', 'from', `At most ${MAX_STATS_DAYS} days from from to to (got ${days})`);
  return { from, to };
}
