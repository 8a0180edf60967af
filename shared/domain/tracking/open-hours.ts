import { DateTime } from 'luxon';

/**
 * The open-hour histogram: how many human opens fell in each hour 0–23 of the reader's local day. A
 * contact keeps its own (bumped by every human open, in the tracking transaction); a client keeps the sum over its
 * contacts (the fallback of send time mode 2, docs/decisions/0081-send-time-optimisation.md "Send-time optimisation").
 *
 * Stored as sparse number attributes `open_h00` … `open_h23` on the item, each raised with `ADD open_hNN 1`: DynamoDB
 * cannot ADD inside a map that does not exist yet, and plain attributes need no "create the map first" write. An hour
 * without opens has no attribute; 24 small counters at most (~260 bytes).
 */
export type OpenHours = readonly number[];

export const OPEN_HOURS = 24;

/** The attribute holding hour `hour`'s count (`open_h07`). */
export const openHourAttribute = (hour: number): string => `open_h${String(hour).padStart(2, '0')}`;

/** The 24 counts a stored item carries (absent or malformed attributes read as 0). */
export function openHoursOf(item: object | undefined): number[] {
  const attributes = (item ?? {}) as Record<string, unknown>;
  return Array.from({ length: OPEN_HOURS }, (_, hour) => {
    const count = attributes[openHourAttribute(hour)];
    return typeof count === 'number' && Number.isFinite(count) && count > 0 ? count : 0;
  });
}

/** All opens the histogram counts. */
export const totalOpens = (hours: OpenHours): number => hours.reduce((sum, n) => sum + n, 0);

/**
 * The local hour (0–23) at which an open that happened at `at` (ISO 8601) was made, read on the clocks of `zone`
 * (IANA name); undefined when either is unusable (then nothing is counted).
 */
export function localOpenHour(at: string, zone: string): number | undefined {
  const local = DateTime.fromISO(at, { zone: 'utc' }).setZone(zone);
  return local.isValid ? local.hour : undefined;
}
