import { DateTime } from 'luxon';

/**
 * When a send deferred by the client's quota may try again: the next UTC day, or the next month when this month's
 * quota is spent too (the periods the counters count). The caller re-dispatches for that instant; the claim tells
 * again which limit holds.
 */
export function nextQuotaWindow(quota: { day: string; month: string }, now: Date): { when: Date; reason: string } {
  const utc = DateTime.fromJSDate(now, { zone: 'utc' });
  const nextDay = utc.startOf('day').plus({ days: 1 });
  // The claim does not say which limit failed; the first instant either could free up is the next day.
  return { when: nextDay.toJSDate(), reason: `deferred: e-mail quota reached (day ${quota.day} or month ${quota.month})` };
}
