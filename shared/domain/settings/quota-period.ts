/*
 * Quota periods are UTC calendar months and days (the counters' keys use these labels). UTC labels need no time zone
 * database, so they are read from the ISO form of the instant rather than through luxon: the settings, contact,
 * workflow and template functions that only label a period stay free of it.
 */

/** `yyyy-MM` of the UTC month. */
export const quotaMonthOf = (at: Date): string => at.toISOString().slice(0, 7);
/** `yyyy-MM-dd` of the UTC day. */
export const quotaDayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** When the monthly counter starts again: the first instant of the next UTC month. */
export const quotaResetAt = (at: Date): string => {
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999. Month 12 rolls into the next year.
  const next = new Date(0);
  next.setUTCFullYear(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
  return next.toISOString();
};
