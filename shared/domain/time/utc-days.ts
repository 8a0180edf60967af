const DAY_MS = 86_400_000;

/** The UTC day (yyyy-mm-dd) of an instant. */
export const utcDayOf = (instant: Date | number): string => new Date(instant).toISOString().slice(0, 10);

/** Every UTC day from `from` to `to` inclusive (yyyy-mm-dd); empty when `from` is after `to`. */
export function utcDaysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS) days.push(utcDayOf(t));
  return days;
}
