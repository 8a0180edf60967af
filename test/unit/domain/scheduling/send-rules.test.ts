import { describe, expect, it } from 'vitest';
import { blockedBy, parseAllowedDays, sendRulesOf } from '../../../../shared/domain/scheduling/send-rules.js';
import { sendZoneOf } from '../../../../shared/domain/scheduling/send-zone.js';

describe('sendRulesOf', () => {
  it('has no rules without settings', () => {
    expect(sendRulesOf(undefined)).toEqual({});
  });

  it('ignores the window hours and days while the window is disabled', () => {
    expect(
      sendRulesOf({
        send_window_enabled: false,
        send_window_start_hour: 9,
        send_window_end_hour: 17,
        send_window_allowed_days: '1,2',
      }),
    ).toEqual({});
  });

  it('takes the hours and days of an enabled window', () => {
    expect(
      sendRulesOf({
        send_window_enabled: true,
        send_window_start_hour: 9,
        send_window_end_hour: 17,
        send_window_allowed_days: '1,2,3,4,5',
      }),
    ).toEqual({ sendWindow: { startHour: 9, endHour: 17 }, allowedDays: [1, 2, 3, 4, 5] });
  });

  it('keeps a window with only a start, and every day when no days are set', () => {
    expect(sendRulesOf({ send_window_enabled: true, send_window_start_hour: 9 })).toEqual({
      sendWindow: { startHour: 9 },
    });
  });

  it('reads a corrupt day list as every day', () => {
    expect(sendRulesOf({ send_window_enabled: true, send_window_allowed_days: 'x,9' })).toEqual({ sendWindow: {} });
  });

  it('applies quiet hours whatever the window, when both bounds are set', () => {
    expect(sendRulesOf({ quiet_hour_start: 22, quiet_hour_end: 7 })).toEqual({ quietHours: { start: 22, end: 7 } });
  });

  it.each([
    ['only a start', { quiet_hour_start: 22 }],
    ['only an end', { quiet_hour_end: 7 }],
  ])('ignores quiet hours with %s', (_, settings) => {
    expect(sendRulesOf(settings)).toEqual({});
  });
});

describe('parseAllowedDays', () => {
  it.each([
    ['1,2,3,4,5', [1, 2, 3, 4, 5]],
    [' 5, 1 ,3', [1, 3, 5]],
    ['7,7,0,8,a', [7]],
    ['', []],
  ])('reads %j', (text, expected) => {
    expect(parseAllowedDays(text)).toEqual(expected);
  });
});

describe('blockedBy', () => {
  const reading = (isoWeekday: number, hour: number) => ({ wall: 0, isoWeekday, hour, minute: 0 });
  const rules = {
    allowedDays: [1, 2, 3, 4, 5],
    sendWindow: { startHour: 8, endHour: 20 },
    quietHours: { start: 7, end: 9 },
  };

  it.each([
    ['weekday before window', reading(6, 3), 'weekday'],
    ['send window before quiet hours', reading(1, 7), 'send_window'],
    ['quiet hours last', reading(1, 8), 'quiet_hours'],
    ['nothing when all rules allow', reading(1, 9), undefined],
  ])('names the %s', (_, at, expected) => {
    expect(blockedBy(rules, at)).toBe(expected);
  });
});

describe('sendZoneOf: contact → client → UTC', () => {
  it.each([
    ['the contact zone', ['Asia/Tokyo', 'Europe/Paris'], 'Asia/Tokyo'],
    ['the client zone when the contact has none', [undefined, 'Europe/Paris'], 'Europe/Paris'],
    ['the client zone when the contact zone is not a zone', ['Mars/Olympus', 'Europe/Paris'], 'Europe/Paris'],
    ['UTC when neither is set', [undefined, null], 'UTC'],
    ['UTC when neither is valid', ['', 'nope'], 'UTC'],
    ['the canonical spelling', ['america/new_york'], 'America/New_York'],
    ['an alias', ['CET'], 'Europe/Paris'],
  ])('picks %s', (_, candidates, expected) => {
    expect(sendZoneOf(...candidates)).toBe(expected);
  });
});
