import { resolveTimezone } from '../time/timezones.js';

/**
 * The zone a contact's send time is read in (DESIGN.md §5): the contact's time zone, else the client's `timezone`,
 * else UTC. A name that is not a valid IANA zone (or known alias) counts as absent, so bad data never stops a send.
 */
export function sendZoneOf(...candidates: readonly (string | null | undefined)[]): string {
  for (const candidate of candidates) {
    const zone = candidate ? resolveTimezone(candidate) : undefined;
    if (zone) return zone;
  }
  return 'UTC';
}
