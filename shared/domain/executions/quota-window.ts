import { DateTime } from 'luxon';

/**
 * When a send deferred by the client's quota may try again: the next UTC day when today's quota is spent, the next
 * UTC month when this month's is (the periods the counters count). The caller re-dispatches for that instant.
 */
export function nextQuotaWindow(
  exceeded: 'quota_day' | 'quota_month',
  quota: { day: string; month: string },
  now: Date,
): { when: Date; reason: string } {
  const utc = DateTime.fromJSDate(now, { zone: 'utc' });
  if (exceeded === 'quota_month') {
    return {
      when: utc.startOf('month').plus({ months: 1 }).toJSDate(),
      reason: `deferred: monthly e-mail quota reached (${quota.month})`,
    };
  }
  return {
    when: utc.startOf('day').plus({ days: 1 }).toJSDate(),
    reason: `deferred: daily e-mail quota reached (${quota.day})`,
  };
}
