import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { instantsShowing, readClock } from '../../../../shared/domain/scheduling/wall-clock.js';

const wall = (iso: string) => Date.parse(`${iso}Z`);
const iso = (ts: number) => new Date(ts).toISOString();

describe('instantsShowing', () => {
  it.each([
    ['one instant on an ordinary day', 'America/New_York', '2026-03-10T09:00:00', ['2026-03-10T13:00:00.000Z']],
    [
      'the gap moved forward by its length (New York 02:30 → 03:30 EDT)',
      'America/New_York',
      '2026-03-08T02:30:00',
      ['2026-03-08T07:30:00.000Z'],
    ],
    [
      'both instants of a repeated time, earlier first',
      'America/New_York',
      '2026-11-01T01:30:00',
      ['2026-11-01T05:30:00.000Z', '2026-11-01T06:30:00.000Z'],
    ],
    ['London gap (01:30 → 02:30 BST)', 'Europe/London', '2026-03-29T01:30:00', ['2026-03-29T01:30:00.000Z']],
    ['London repeat', 'Europe/London', '2026-10-25T01:30:00', ['2026-10-25T00:30:00.000Z', '2026-10-25T01:30:00.000Z']],
    [
      'a 30-minute gap (Lord Howe 02:15 → 02:45)',
      'Australia/Lord_Howe',
      '2026-10-04T02:15:00',
      ['2026-10-03T15:45:00.000Z'],
    ],
    [
      'a midnight gap (Santiago 00:30 → 01:30)',
      'America/Santiago',
      '2026-09-06T00:30:00',
      ['2026-09-06T04:30:00.000Z'],
    ],
  ])('gives %s', (_, zone, local, expected) => {
    expect(instantsShowing(IANAZone.create(zone), wall(local)).map(iso)).toEqual(expected);
  });
});

describe('readClock', () => {
  it('reads the ISO weekday, hour and minute in the zone', () => {
    const reading = readClock(IANAZone.create('Asia/Kathmandu'), Date.parse('2026-03-15T18:20:00Z'));
    expect(reading).toMatchObject({ isoWeekday: 1, hour: 0, minute: 5 });
  });
});
