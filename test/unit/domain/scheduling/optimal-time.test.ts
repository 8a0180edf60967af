import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  chooseOpenHours,
  computeSendTime,
  type OpenHoursBasis,
  type SendTimeInput,
} from '../../../../shared/domain/scheduling/send-time.js';

/** An instant given as local wall time in a zone ("2026-01-15T10:00" in Asia/Tokyo). */
const local = (wall: string, zone: string) => DateTime.fromISO(wall, { zone }).toJSDate();
/** How clocks in `zone` read an instant, e.g. "2026-01-15T19:00 Thu". */
const reading = (at: Date, zone: string) => DateTime.fromJSDate(at, { zone }).toFormat("yyyy-MM-dd'T'HH:mm ccc");
/** A 24-bucket histogram from `{hour: opens}`. */
const hours = (counts: Record<number, number>) => Array.from({ length: 24 }, (_, h) => counts[h] ?? 0);
const contact = (counts: Record<number, number>): OpenHoursBasis => ({ hours: hours(counts), source: 'contact' });

const TOKYO = 'Asia/Tokyo';
const NY = 'America/New_York';

/** Mode 2 in `zone`, due at the local wall time `due`. */
const optimal = (due: string, zone: string, basis: OpenHoursBasis, rules: Omit<SendTimeInput, 'due' | 'zone'> = {}) => {
  const result = computeSendTime({ due: local(due, zone), zone, openHours: basis, ...rules });
  return { at: reading(result.at, zone), reason: result.reason };
};

describe('computeSendTime: optimal send time (mode 2)', () => {
  it.each([
    ['before the most likely hour → that hour the same day', '2026-01-15T10:00', '2026-01-15T19:00 Thu'],
    ['after it → that hour the next day (within 24 h)', '2026-01-15T20:30', '2026-01-16T19:00 Fri'],
    ['inside it → at once', '2026-01-15T19:20', '2026-01-15T19:20 Thu'],
  ])('%s', (_, due, expected) => {
    expect(optimal(due, TOKYO, contact({ 19: 5, 3: 1 }))).toEqual({ at: expected, reason: 'contact_open_hours' });
  });

  it('takes the sooner of two equally likely hours', () => {
    expect(optimal('2026-01-15T10:00', TOKYO, contact({ 8: 2, 21: 2 }))).toEqual({
      at: '2026-01-15T21:00 Thu',
      reason: 'contact_open_hours',
    });
  });

  it("names the client's aggregate when that chose the time", () => {
    const basis: OpenHoursBasis = { hours: hours({ 12: 40 }), source: 'client' };
    expect(optimal('2026-01-15T10:00', TOKYO, basis)).toEqual({
      at: '2026-01-15T12:00 Thu',
      reason: 'client_open_hours',
    });
  });

  describe('inside the send window and quiet hours', () => {
    it('skips an hour outside the send window for the next most likely one inside it', () => {
      const result = optimal('2026-01-15T10:00', TOKYO, contact({ 19: 5, 12: 2 }), {
        sendWindow: { startHour: 9, endHour: 17 },
      });
      expect(result).toEqual({ at: '2026-01-15T12:00 Thu', reason: 'contact_open_hours' });
    });

    it('sends at the earliest allowed time when no hour with opens is allowed', () => {
      const result = optimal('2026-01-15T10:00', TOKYO, contact({ 19: 5 }), {
        sendWindow: { startHour: 9, endHour: 17 },
      });
      expect(result).toEqual({ at: '2026-01-15T10:00 Thu', reason: undefined });
    });

    it('skips hours in quiet hours that cross midnight (22–7), on both sides of midnight', () => {
      const result = optimal('2026-01-15T10:00', TOKYO, contact({ 23: 6, 6: 5, 20: 1 }), {
        quietHours: { start: 22, end: 7 },
      });
      expect(result).toEqual({ at: '2026-01-15T20:00 Thu', reason: 'contact_open_hours' });
    });

    it('waits out quiet hours, then takes the most likely hour of the day they end on', () => {
      // Due 23:30 is quiet until 07:00; 21:00 is 14 h after that, and more likely than 07:00.
      const result = optimal('2026-01-15T23:30', TOKYO, contact({ 21: 4, 7: 1 }), {
        quietHours: { start: 22, end: 7 },
      });
      expect(result).toEqual({ at: '2026-01-16T21:00 Fri', reason: 'contact_open_hours' });
    });

    it('never looks further than 24 h after the earliest allowed time (weekdays only, Friday → not Monday)', () => {
      // Friday 10:00: the next 09:00 is Saturday (not allowed), Monday 09:00 is 71 h away.
      const result = optimal('2026-01-16T10:00', TOKYO, contact({ 9: 5 }), { allowedDays: [1, 2, 3, 4, 5] });
      expect(result).toEqual({ at: '2026-01-16T10:00 Fri', reason: undefined });
    });

    it('starts from the first allowed day when the due time falls on a weekend', () => {
      const result = optimal('2026-01-17T10:00', TOKYO, contact({ 19: 5 }), { allowedDays: [1, 2, 3, 4, 5] });
      expect(result).toEqual({ at: '2026-01-19T19:00 Mon', reason: 'contact_open_hours' });
    });
  });

  describe('across DST changes (New York: 2026-03-08 spring forward, 2026-11-01 fall back)', () => {
    it('moves an hour the spring-forward gap skips forward by the gap (02:00 → 03:00)', () => {
      expect(optimal('2026-03-08T00:30', NY, contact({ 2: 5 }))).toEqual({
        at: '2026-03-08T03:00 Sun',
        reason: 'contact_open_hours',
      });
    });

    it('takes the earlier of the two 01:00 of the fall-back night', () => {
      const result = computeSendTime({ due: local('2026-11-01T00:30', NY), zone: NY, openHours: contact({ 1: 5 }) });
      expect(result.at.toISOString()).toBe('2026-11-01T05:00:00.000Z'); // 01:00 EDT (UTC-4), not 01:00 EST
    });

    it('keeps the local hour across the change: 19:00 the next day is 23.5 h later on the 25-hour day', () => {
      expect(optimal('2026-10-31T20:30', NY, contact({ 19: 5 }))).toEqual({
        at: '2026-11-01T19:00 Sun',
        reason: 'contact_open_hours',
      });
    });

    it('keeps the local hour across the change: 18:00 the next day is 22.5 h later on the 23-hour day', () => {
      expect(optimal('2026-03-07T19:30', NY, contact({ 18: 5 }))).toEqual({
        at: '2026-03-08T18:00 Sun',
        reason: 'contact_open_hours',
      });
    });
  });

  it('refuses a preferred time and open hours together (a programming error)', () => {
    expect(() =>
      computeSendTime({
        due: new Date('2026-01-15T00:00:00Z'),
        preferred: { hour: 9, minute: 0 },
        openHours: contact({ 1: 5 }),
      }),
    ).toThrow(RangeError);
  });
});

describe('chooseOpenHours: whose history decides', () => {
  it.each([
    ["the contact's, from 3 human opens", { 19: 3 }, { 8: 50 }, 'contact'],
    ["the client's aggregate when the contact has fewer than 3", { 19: 2 }, { 8: 10 }, 'client'],
    ['none when the aggregate has fewer than 10 too', { 19: 2 }, { 8: 9 }, undefined],
    ['none when the client has no aggregate', {}, undefined, undefined],
  ] as const)('%s', (_, mine, theirs, expected) => {
    expect(chooseOpenHours(hours(mine), theirs && hours(theirs))?.source).toBe(expected);
  });
});
