import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { dueAfter, dueOf, startOf } from '../../../../../shared/domain/broadcasts/engine/due-of.js';
import type { SettingsFields } from '../../../../../shared/domain/settings/settings-store.js';

/** How clocks in `zone` read an instant, e.g. "2026-01-15T09:00 Thu". */
const reading = (at: Date, zone: string) => DateTime.fromJSDate(at, { zone }).toFormat("yyyy-MM-dd'T'HH:mm ccc");
const local = (wall: string, zone: string) => DateTime.fromISO(wall, { zone }).toJSDate();

const LOCAL_NINE = { mode: 'local_time', date: '2026-01-15', time: '09:00' } as const;

describe('startOf', () => {
  it('starts a local_time broadcast when its date begins in UTC+14', () => {
    // Prepare // Act
    const start = startOf(LOCAL_NINE, new Date('2026-01-01T00:00:00Z'));
    // Assess
    expect(start.toISOString()).toBe('2026-01-14T10:00:00.000Z');
  });

  it('starts `at` at its instant and `now` at once', () => {
    const now = new Date('2026-01-15T10:00:00Z');
    expect(startOf({ mode: 'at', send_at: '2026-02-01T08:30:00Z' }, now).toISOString()).toBe(
      '2026-02-01T08:30:00.000Z',
    );
    expect(startOf({ mode: 'now' }, now)).toBe(now);
  });
});

describe('dueOf: local_time gives each zone its own 09:00 of the date', () => {
  const startedAt = startOf(LOCAL_NINE, new Date('2026-01-01T00:00:00Z'));
  it.each([
    ['Pacific/Kiritimati', '2026-01-15T09:00 Thu'], // UTC+14: the first zone to reach it
    ['Asia/Tokyo', '2026-01-15T09:00 Thu'],
    ['Europe/Paris', '2026-01-15T09:00 Thu'],
    ['America/New_York', '2026-01-15T09:00 Thu'],
    ['Pacific/Pago_Pago', '2026-01-15T09:00 Thu'], // UTC-11
    ['Etc/GMT+12', '2026-01-15T09:00 Thu'], // UTC-12: the last
  ])('%s → %s', (zone, expected) => {
    // Prepare // Act
    const due = dueOf({ schedule: LOCAL_NINE, startedAt, contactZone: zone, settings: undefined });
    // Assess
    expect(reading(due.at, zone)).toBe(expected);
    expect(due).toMatchObject({ zone, capDay: '2026-01-15', sendable: true });
    expect(due.reason).toBeUndefined();
  });

  it('takes the client zone when the contact has none, then UTC', () => {
    const settings = { timezone: 'Asia/Kolkata' } as SettingsFields;
    expect(reading(dueOf({ schedule: LOCAL_NINE, startedAt, settings }).at, 'Asia/Kolkata')).toBe(
      '2026-01-15T09:00 Thu',
    );
    expect(
      dueOf({ schedule: LOCAL_NINE, startedAt, contactZone: 'Not/AZone', settings: undefined }).at.toISOString(),
    ).toBe('2026-01-15T09:00:00.000Z');
  });

  it('sends a zone whose 09:00 had passed at the start at the next day’s 09:00', () => {
    // Prepare: started late, at 10:00 in Paris on the date
    const late = local('2026-01-15T10:00', 'Europe/Paris');
    // Act
    const paris = dueOf({ schedule: LOCAL_NINE, startedAt: late, contactZone: 'Europe/Paris', settings: undefined });
    const newYork = dueOf({
      schedule: LOCAL_NINE,
      startedAt: late,
      contactZone: 'America/New_York',
      settings: undefined,
    });
    // Assess
    expect(reading(paris.at, 'Europe/Paris')).toBe('2026-01-16T09:00 Fri');
    expect(paris.capDay).toBe('2026-01-16');
    expect(reading(newYork.at, 'America/New_York')).toBe('2026-01-15T09:00 Thu');
  });

  it('moves a time inside a spring-forward gap forward by the gap (02:30 → 03:30 in New York)', () => {
    const schedule = { mode: 'local_time', date: '2026-03-08', time: '02:30' } as const;
    const due = dueOf({
      schedule,
      startedAt: startOf(schedule, new Date(0)),
      contactZone: 'America/New_York',
      settings: undefined,
    });
    expect(reading(due.at, 'America/New_York')).toBe('2026-03-08T03:30 Sun');
  });

  it('takes the earlier of two 01:30s on a fall-back night', () => {
    const schedule = { mode: 'local_time', date: '2026-11-01', time: '01:30' } as const;
    const due = dueOf({
      schedule,
      startedAt: startOf(schedule, new Date(0)),
      contactZone: 'America/New_York',
      settings: undefined,
    });
    expect(due.at.toISOString()).toBe('2026-11-01T05:30:00.000Z'); // 01:30 EDT, not EST
  });
});

describe('dueOf: the send window and quiet hours apply on the recipient’s clock', () => {
  const settings = {
    send_window_enabled: true,
    send_window_start_hour: 10,
    send_window_end_hour: 18,
    quiet_hour_start: 22,
    quiet_hour_end: 7,
  } as SettingsFields;

  it('moves a local 09:00 to the window’s 10:00 and says why', () => {
    const due = dueOf({
      schedule: LOCAL_NINE,
      startedAt: startOf(LOCAL_NINE, new Date(0)),
      contactZone: 'Asia/Tokyo',
      settings,
    });
    expect(reading(due.at, 'Asia/Tokyo')).toBe('2026-01-15T10:00 Thu');
    expect(due.reason).toBe('send_window');
  });

  it('moves a `now` broadcast started in a recipient’s quiet hours to their end', () => {
    const startedAt = new Date('2026-01-15T14:00:00Z'); // 23:00 in Tokyo
    const due = dueOf({
      schedule: { mode: 'now' },
      startedAt,
      contactZone: 'Asia/Tokyo',
      settings: { quiet_hour_start: 22, quiet_hour_end: 7 } as SettingsFields,
    });
    expect(reading(due.at, 'Asia/Tokyo')).toBe('2026-01-16T07:00 Fri');
    expect(due.reason).toBe('quiet_hours');
  });

  it('sends `now` at the start and `at` at its instant when no rule objects', () => {
    const startedAt = new Date('2026-01-15T10:00:00Z');
    expect(dueOf({ schedule: { mode: 'now' }, startedAt, settings: undefined }).at).toEqual(startedAt);
    const at = { mode: 'at', send_at: '2026-01-15T10:05:00Z' } as const;
    expect(dueOf({ schedule: at, startedAt, settings: undefined }).at.toISOString()).toBe('2026-01-15T10:05:00.000Z');
  });

  it('skips a recipient when the rules leave no time at all', () => {
    const never = {
      send_window_enabled: true,
      send_window_start_hour: 23,
      send_window_end_hour: 6,
      quiet_hour_start: 22,
      quiet_hour_end: 7,
    } as SettingsFields;
    const due = dueOf({ schedule: { mode: 'now' }, startedAt: new Date('2026-01-15T10:00:00Z'), settings: never });
    expect(due).toMatchObject({ sendable: false, reason: 'no_send_time' });
  });

  it('re-applies the rules to a quota deferral to 00:00 UTC (no landing in quiet hours)', () => {
    const at = dueAfter(new Date('2026-01-16T00:00:00Z'), 'Asia/Tokyo', {
      quiet_hour_start: 8,
      quiet_hour_end: 12,
    } as SettingsFields);
    expect(reading(at, 'Asia/Tokyo')).toBe('2026-01-16T12:00 Fri');
  });
});
