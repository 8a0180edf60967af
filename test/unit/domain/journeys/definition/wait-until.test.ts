import { describe, expect, it } from 'vitest';
import { nextLocalTime } from '../../../../../shared/domain/journeys/definition/wait-until.js';

describe('nextLocalTime', () => {
  it.each<[string, string, string, string, number[] | undefined, string]>([
    // name, after (UTC), zone, time, weekdays, expected (UTC)
    ['later today', '2026-11-28T07:00:00Z', 'Europe/Berlin', '09:30', undefined, '2026-11-28T08:30:00.000Z'],
    ['passed today: tomorrow', '2026-11-28T09:00:00Z', 'Europe/Berlin', '09:30', undefined, '2026-11-29T08:30:00.000Z'],
    [
      'exactly now: strictly after, tomorrow',
      '2026-11-28T08:30:00Z',
      'Europe/Berlin',
      '09:30',
      undefined,
      '2026-11-29T08:30:00.000Z',
    ],
    ['a minute before', '2026-11-28T08:29:00Z', 'Europe/Berlin', '09:30', undefined, '2026-11-28T08:30:00.000Z'],
    // 2026-11-28 is a Saturday (6).
    [
      'the next allowed weekday (Monday)',
      '2026-11-28T07:00:00Z',
      'Europe/Berlin',
      '09:30',
      [1],
      '2026-11-30T08:30:00.000Z',
    ],
    ['today when allowed', '2026-11-28T07:00:00Z', 'Europe/Berlin', '09:30', [6, 7], '2026-11-28T08:30:00.000Z'],
    [
      'a week on when only today is allowed and it passed',
      '2026-11-28T09:00:00Z',
      'Europe/Berlin',
      '09:30',
      [6],
      '2026-12-05T08:30:00.000Z',
    ],
    [
      "the local date, not UTC's (Auckland is a day ahead)",
      '2026-11-28T20:00:00Z',
      'Pacific/Auckland',
      '08:00',
      undefined,
      '2026-11-29T19:00:00.000Z',
    ],
    ['midnight', '2026-11-28T12:00:00Z', 'America/New_York', '00:00', undefined, '2026-11-29T05:00:00.000Z'],
    ['UTC', '2026-11-28T12:00:00Z', 'UTC', '23:59', undefined, '2026-11-28T23:59:00.000Z'],
    // Berlin springs forward 2026-03-29 02:00 CET → 03:00 CEST (01:00 UTC).
    [
      'Berlin spring-forward: 02:30 is skipped → 03:00 CEST',
      '2026-03-28T12:00:00Z',
      'Europe/Berlin',
      '02:30',
      undefined,
      '2026-03-29T01:00:00.000Z',
    ],
    [
      'Berlin spring-forward: 02:00 → 03:00 CEST',
      '2026-03-28T12:00:00Z',
      'Europe/Berlin',
      '02:00',
      undefined,
      '2026-03-29T01:00:00.000Z',
    ],
    [
      'Berlin spring-forward: 03:00 exists',
      '2026-03-28T12:00:00Z',
      'Europe/Berlin',
      '03:00',
      undefined,
      '2026-03-29T01:00:00.000Z',
    ],
    [
      'Berlin spring-forward: 01:59 exists',
      '2026-03-28T12:00:00Z',
      'Europe/Berlin',
      '01:59',
      undefined,
      '2026-03-29T00:59:00.000Z',
    ],
    [
      'Berlin the day after spring-forward, in CEST',
      '2026-03-29T12:00:00Z',
      'Europe/Berlin',
      '02:30',
      undefined,
      '2026-03-30T00:30:00.000Z',
    ],
    // Berlin falls back 2026-10-25 03:00 CEST → 02:00 CET: 02:30 is shown at 00:30 and 01:30 UTC.
    [
      'Berlin fall-back: 02:30 twice → the earlier',
      '2026-10-24T12:00:00Z',
      'Europe/Berlin',
      '02:30',
      undefined,
      '2026-10-25T00:30:00.000Z',
    ],
    [
      "Berlin fall-back: between the two, the day's time has passed",
      '2026-10-25T01:00:00Z',
      'Europe/Berlin',
      '02:30',
      undefined,
      '2026-10-26T01:30:00.000Z',
    ],
    // New York springs forward 2026-03-08 02:00 EST → 03:00 EDT (07:00 UTC).
    [
      'New York spring-forward: 02:30 → 03:00 EDT',
      '2026-03-07T17:00:00Z',
      'America/New_York',
      '02:30',
      undefined,
      '2026-03-08T07:00:00.000Z',
    ],
    [
      'New York spring-forward: 09:00 is in EDT',
      '2026-03-08T05:00:00Z',
      'America/New_York',
      '09:00',
      undefined,
      '2026-03-08T13:00:00.000Z',
    ],
    // New York falls back 2026-11-01 02:00 EDT → 01:00 EST: 01:30 is shown at 05:30 and 06:30 UTC.
    [
      'New York fall-back: 01:30 twice → the earlier (EDT)',
      '2026-10-31T17:00:00Z',
      'America/New_York',
      '01:30',
      undefined,
      '2026-11-01T05:30:00.000Z',
    ],
    [
      'New York fall-back: 09:00 is in EST',
      '2026-11-01T10:00:00Z',
      'America/New_York',
      '09:00',
      undefined,
      '2026-11-01T14:00:00.000Z',
    ],
    [
      'New York fall-back on an allowed Sunday only',
      '2026-10-26T12:00:00Z',
      'America/New_York',
      '01:30',
      [7],
      '2026-11-01T05:30:00.000Z',
    ],
  ])('%s', (_name, after, zone, time, weekdays, expected) => {
    // Act
    const at = nextLocalTime(new Date(after), zone, time, weekdays);

    // Assess
    expect(at.toISOString()).toBe(expected);
  });

  it.each([
    ['a time outside the day', () => nextLocalTime(new Date(), 'UTC', '24:00')],
    ['an unknown zone', () => nextLocalTime(new Date(), 'Mars/Olympus', '09:00')],
    ['no weekday that exists', () => nextLocalTime(new Date(), 'UTC', '09:00', [9])],
  ])('refuses %s', (_name, act) => {
    expect(act).toThrow(RangeError);
  });
});
