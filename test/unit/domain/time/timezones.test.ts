import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { resolveTimezone } from '../../../../shared/domain/time/timezones.js';

/** Zone names are checked by the platform's Intl, without luxon: the same verdicts as luxon's. */
describe('resolveTimezone', () => {
  it.each([
    ['Europe/Paris', 'Europe/Paris'],
    ['america/new_york', 'America/New_York'],
    [' Asia/Tokyo ', 'Asia/Tokyo'],
    ['UTC', 'UTC'],
  ])('accepts %j as %j', (value, zone) => {
    expect(resolveTimezone(value)).toBe(zone);
  });

  it.each(['Mars/Olympus_Mons', 'Europe/Pariss', '+25:00', 'not a zone'])('refuses %j, as luxon does', (value) => {
    expect(resolveTimezone(value)).toBeUndefined();
    expect(IANAZone.isValidZone(value.trim())).toBe(false);
  });

  it('maps a CRM abbreviation through the alias table', () => {
    expect(resolveTimezone('PST')).toBe('America/Los_Angeles');
  });
});
