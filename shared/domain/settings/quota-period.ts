import { DateTime } from 'luxon';

/** Quota periods are UTC calendar months and days (the counters' keys use these labels). */
export const quotaMonthOf = (at: Date): string => DateTime.fromJSDate(at, { zone: 'utc' }).toFormat('yyyy-MM');
export const quotaDayOf = (at: Date): string => DateTime.fromJSDate(at, { zone: 'utc' }).toFormat('yyyy-MM-dd');

/** When the monthly counter starts again: the first instant of the next UTC month. */
export const quotaResetAt = (at: Date): string =>
  DateTime.fromJSDate(at, { zone: 'utc' }).startOf('month').plus({ months: 1 }).toUTC().toISO()!;
