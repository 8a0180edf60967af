import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  computeSendTime,
  NoSendTimeError,
  type SendTimeInput,
} from '../../../../shared/domain/scheduling/send-time.js';

/** An instant given as local wall time in a zone ("2026-03-13T18:00" in Europe/Paris). */
const local = (wall: string, zone: string) => DateTime.fromISO(wall, { zone }).toJSDate();
/** How clocks in `zone` read an instant, e.g. "2026-03-16T09:00 Mon". */
const reading = (at: Date, zone: string) => DateTime.fromJSDate(at, { zone }).toFormat("yyyy-MM-dd'T'HH:mm ccc");

const NY = 'America/New_York';
const LONDON = 'Europe/London';
const PARIS = 'Europe/Paris';

describe('computeSendTime: nothing to move', () => {
  it('keeps the due time when it is inside the window, on an allowed day and outside quiet hours', () => {
    // Prepare
    const due = local('2026-03-11T10:17:42.123', PARIS); // a Wednesday
    // Act
    const result = computeSendTime({
      due,
      zone: PARIS,
      sendWindow: { startHour: 9, endHour: 17 },
      allowedDays: [1, 2, 3, 4, 5],
      quietHours: { start: 22, end: 7 },
    });
    // Assess
    expect(result).toEqual({ at: due });
    expect(result.at).not.toBe(due);
  });

  it('keeps the due time without rules', () => {
    const due = new Date('2026-07-04T03:00:00Z');
    expect(computeSendTime({ due })).toEqual({ at: due });
  });
});

describe('computeSendTime: preferred time of day (mode 1)', () => {
  it.each([
    ['before the preferred time → the same day', '2026-03-11T07:00', '2026-03-11T09:30 Wed'],
    ['after the preferred time → the next day', '2026-03-11T09:31', '2026-03-12T09:30 Thu'],
    ['late at night → the next morning', '2026-03-11T23:59', '2026-03-12T09:30 Thu'],
  ])('%s', (_, due, expected) => {
    const result = computeSendTime({ due: local(due, PARIS), zone: PARIS, preferred: { hour: 9, minute: 30 } });
    expect(reading(result.at, PARIS)).toBe(expected);
    expect(result.reason).toBe('preferred_time');
  });

  it('keeps a due time that is exactly the preferred time, with no reason', () => {
    const due = local('2026-03-11T09:30', PARIS);
    expect(computeSendTime({ due, zone: PARIS, preferred: { hour: 9, minute: 30 } })).toEqual({ at: due });
  });

  it('sends at the preferred time of the next allowed weekday, not at its midnight', () => {
    // Friday evening, weekdays only, 09:00 preferred
    const result = computeSendTime({
      due: local('2026-03-13T20:00', PARIS),
      zone: PARIS,
      preferred: { hour: 9, minute: 0 },
      sendWindow: {},
      allowedDays: [1, 2, 3, 4, 5],
    });
    expect(reading(result.at, PARIS)).toBe('2026-03-16T09:00 Mon');
    expect(result.reason).toBe('weekday');
  });

  it('moves a preferred time the rules forbid to the first allowed instant after it', () => {
    // 08:15 preferred, window 10–17: the window opens at 10:00 the same day
    const result = computeSendTime({
      due: local('2026-03-11T06:00', PARIS),
      zone: PARIS,
      preferred: { hour: 8, minute: 15 },
      sendWindow: { startHour: 10, endHour: 17 },
    });
    expect(reading(result.at, PARIS)).toBe('2026-03-11T10:00 Wed');
    expect(result.reason).toBe('send_window');
  });

  it("keeps the first allowed instant when the later day's preferred time falls in quiet hours", () => {
    const result = computeSendTime({
      due: local('2026-03-11T10:00', PARIS),
      zone: PARIS,
      preferred: { hour: 23, minute: 30 },
      quietHours: { start: 22, end: 7 },
    });
    expect(reading(result.at, PARIS)).toBe('2026-03-12T07:00 Thu');
    expect(result.reason).toBe('quiet_hours');
  });
});

describe('computeSendTime: DST (New York)', () => {
  it('sends a preferred 02:30 at 03:30 EDT on the spring-forward day (2026-03-08)', () => {
    const result = computeSendTime({
      due: local('2026-03-07T12:00', NY),
      zone: NY,
      preferred: { hour: 2, minute: 30 },
    });
    expect(result.at.toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(reading(result.at, NY)).toBe('2026-03-08T03:30 Sun');
  });

  it('neither skips nor doubles a daily 02:30 across spring forward', () => {
    // Prepare: chain daily sends, each due just after the previous one
    const days: string[] = [];
    let due = local('2026-03-06T00:00', NY);
    // Act
    for (let i = 0; i < 5; i++) {
      const { at } = computeSendTime({ due, zone: NY, preferred: { hour: 2, minute: 30 } });
      days.push(reading(at, NY));
      due = new Date(at.getTime() + 1);
    }
    // Assess
    expect(days).toEqual([
      '2026-03-06T02:30 Fri',
      '2026-03-07T02:30 Sat',
      '2026-03-08T03:30 Sun',
      '2026-03-09T02:30 Mon',
      '2026-03-10T02:30 Tue',
    ]);
  });

  it('takes the earlier 01:30 on the fall-back night (2026-11-01)', () => {
    const result = computeSendTime({
      due: local('2026-11-01T00:00', NY),
      zone: NY,
      preferred: { hour: 1, minute: 30 },
    });
    expect(result.at.toISOString()).toBe('2026-11-01T05:30:00.000Z'); // 01:30 EDT
  });

  it('takes the repeated 01:30 when due falls between the two, and sends only once that night', () => {
    const due = new Date('2026-11-01T06:00:00Z'); // 01:00 EST, after the first 01:30 EDT
    const result = computeSendTime({ due, zone: NY, preferred: { hour: 1, minute: 30 } });
    expect(result.at.toISOString()).toBe('2026-11-01T06:30:00.000Z'); // 01:30 EST
    const next = computeSendTime({
      due: new Date(result.at.getTime() + 1),
      zone: NY,
      preferred: { hour: 1, minute: 30 },
    });
    expect(reading(next.at, NY)).toBe('2026-11-02T01:30 Mon');
  });

  it('reads quiet hours on the local clock across fall back (22–7 ends at 07:00 EST)', () => {
    const result = computeSendTime({ due: local('2026-10-31T23:00', NY), zone: NY, quietHours: { start: 22, end: 7 } });
    expect(result.at.toISOString()).toBe('2026-11-01T12:00:00.000Z');
  });

  it('opens a window that starts in the spring-forward gap at the first valid minute (03:00 EDT)', () => {
    const result = computeSendTime({
      due: local('2026-03-08T01:10', NY),
      zone: NY,
      sendWindow: { startHour: 2, endHour: 6 },
    });
    expect(reading(result.at, NY)).toBe('2026-03-08T03:00 Sun');
    expect(result.at.toISOString()).toBe('2026-03-08T07:00:00.000Z');
  });
});

describe('computeSendTime: DST (London)', () => {
  it('sends a preferred 01:30 at 02:30 BST on the spring-forward day (2026-03-29)', () => {
    const result = computeSendTime({
      due: local('2026-03-29T00:00', LONDON),
      zone: LONDON,
      preferred: { hour: 1, minute: 30 },
    });
    expect(result.at.toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(reading(result.at, LONDON)).toBe('2026-03-29T02:30 Sun');
  });

  it('takes the earlier 01:30 (BST) on the fall-back night (2026-10-25)', () => {
    const result = computeSendTime({
      due: local('2026-10-25T00:00', LONDON),
      zone: LONDON,
      preferred: { hour: 1, minute: 30 },
    });
    expect(result.at.toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });

  it('keeps 09:00 local on both sides of a transition', () => {
    const before = computeSendTime({
      due: local('2026-03-28T08:00', LONDON),
      zone: LONDON,
      preferred: { hour: 9, minute: 0 },
    });
    const after = computeSendTime({
      due: local('2026-03-29T08:00', LONDON),
      zone: LONDON,
      preferred: { hour: 9, minute: 0 },
    });
    expect([before.at.toISOString(), after.at.toISOString()]).toEqual([
      '2026-03-28T09:00:00.000Z',
      '2026-03-29T08:00:00.000Z',
    ]);
  });
});

describe('computeSendTime: quiet hours', () => {
  const quiet = (due: string, quietHours: SendTimeInput['quietHours']) =>
    computeSendTime({ due: local(due, PARIS), zone: PARIS, ...(quietHours ? { quietHours } : {}) });

  it.each([
    ['23:15 → 07:00 the next day', '2026-03-11T23:15', '2026-03-12T07:00 Thu', 'quiet_hours'],
    ['22:00 (start inclusive) → 07:00', '2026-03-11T22:00', '2026-03-12T07:00 Thu', 'quiet_hours'],
    ['06:59 → 07:00 the same day', '2026-03-12T06:59', '2026-03-12T07:00 Thu', 'quiet_hours'],
    ['00:00 → 07:00', '2026-03-12T00:00', '2026-03-12T07:00 Thu', 'quiet_hours'],
    ['07:00 (end exclusive) → unchanged', '2026-03-12T07:00', '2026-03-12T07:00 Thu', undefined],
    ['21:59 → unchanged', '2026-03-11T21:59', '2026-03-11T21:59 Wed', undefined],
  ])('22–7 across midnight: %s', (_, due, expected, reason) => {
    const result = quiet(due, { start: 22, end: 7 });
    expect(reading(result.at, PARIS)).toBe(expected);
    expect(result.reason).toBe(reason);
  });

  it('applies a daytime range (12–14)', () => {
    expect(reading(quiet('2026-03-11T12:30', { start: 12, end: 14 }).at, PARIS)).toBe('2026-03-11T14:00 Wed');
  });

  it('treats start === end as no quiet hours', () => {
    expect(quiet('2026-03-11T03:00', { start: 3, end: 3 })).toEqual({ at: local('2026-03-11T03:00', PARIS) });
  });
});

describe('computeSendTime: send window', () => {
  const windowed = (due: string, sendWindow: SendTimeInput['sendWindow'], allowedDays?: number[]) =>
    computeSendTime({ due: local(due, PARIS), zone: PARIS, sendWindow, ...(allowedDays ? { allowedDays } : {}) });

  it.each([
    ['9–17: 08:30 → 09:00', '2026-03-11T08:30', { startHour: 9, endHour: 17 }, '2026-03-11T09:00 Wed'],
    ['9–17: 16:59 → unchanged', '2026-03-11T16:59', { startHour: 9, endHour: 17 }, '2026-03-11T16:59 Wed'],
    [
      '9–17: 17:00 (end exclusive) → 09:00 the next day',
      '2026-03-11T17:00',
      { startHour: 9, endHour: 17 },
      '2026-03-12T09:00 Thu',
    ],
    ['only a start (9): 23:30 is inside', '2026-03-11T23:30', { startHour: 9 }, '2026-03-11T23:30 Wed'],
    ['only a start (9): 08:00 → 09:00', '2026-03-11T08:00', { startHour: 9 }, '2026-03-11T09:00 Wed'],
    ['only an end (17): 00:30 is inside', '2026-03-11T00:30', { endHour: 17 }, '2026-03-11T00:30 Wed'],
    ['only an end (17): 17:00 → midnight', '2026-03-11T17:00', { endHour: 17 }, '2026-03-12T00:00 Thu'],
    ['20–6 across midnight: 12:00 → 20:00', '2026-03-11T12:00', { startHour: 20, endHour: 6 }, '2026-03-11T20:00 Wed'],
    [
      '20–6 across midnight: 03:00 is inside',
      '2026-03-11T03:00',
      { startHour: 20, endHour: 6 },
      '2026-03-11T03:00 Wed',
    ],
    ['9–9 (start === end): every hour', '2026-03-11T03:00', { startHour: 9, endHour: 9 }, '2026-03-11T03:00 Wed'],
    ['no hours: every hour', '2026-03-11T03:00', {}, '2026-03-11T03:00 Wed'],
  ])('%s', (_, due, sendWindow, expected) => {
    expect(reading(windowed(due, sendWindow).at, PARIS)).toBe(expected);
  });

  it('moves Friday evening to Monday morning on a weekday window', () => {
    const result = windowed('2026-03-13T18:00', { startHour: 9, endHour: 17 }, [1, 2, 3, 4, 5]);
    expect(reading(result.at, PARIS)).toBe('2026-03-16T09:00 Mon');
    expect(result.reason).toBe('send_window');
  });

  it('names the weekday when the due day itself is not allowed', () => {
    const result = windowed('2026-03-14T10:00', { startHour: 9, endHour: 17 }, [1, 2, 3, 4, 5]);
    expect(reading(result.at, PARIS)).toBe('2026-03-16T09:00 Mon');
    expect(result.reason).toBe('weekday');
  });

  it('applies allowed days alone (Sunday only)', () => {
    expect(reading(windowed('2026-03-11T10:00', {}, [7]).at, PARIS)).toBe('2026-03-15T00:00 Sun');
  });
});

describe('computeSendTime: window and quiet hours together', () => {
  const rules = { sendWindow: { startHour: 8, endHour: 20 }, quietHours: { start: 7, end: 9 } };

  it.each([
    ['06:00 (outside the window) → 09:00', '2026-03-11T06:00', '2026-03-11T09:00 Wed', 'send_window'],
    ['08:10 (window, quiet) → 09:00', '2026-03-11T08:10', '2026-03-11T09:00 Wed', 'quiet_hours'],
    ['20:00 → 09:00 the next day', '2026-03-11T20:00', '2026-03-12T09:00 Thu', 'send_window'],
    ['12:00 → unchanged', '2026-03-11T12:00', '2026-03-11T12:00 Wed', undefined],
  ])('%s', (_, due, expected, reason) => {
    const result = computeSendTime({ due: local(due, PARIS), zone: PARIS, ...rules });
    expect(reading(result.at, PARIS)).toBe(expected);
    expect(result.reason).toBe(reason);
  });

  it('combines weekdays, window, quiet hours and a preferred time', () => {
    const result = computeSendTime({
      due: local('2026-03-13T16:30', PARIS), // Friday, after the preferred time
      zone: PARIS,
      preferred: { hour: 10, minute: 45 },
      sendWindow: { startHour: 9, endHour: 17 },
      allowedDays: [1, 2, 3, 4, 5],
      quietHours: { start: 22, end: 7 },
    });
    expect(reading(result.at, PARIS)).toBe('2026-03-16T10:45 Mon');
    expect(result.reason).toBe('weekday');
  });
});

describe('computeSendTime: time zones', () => {
  const due = new Date('2026-03-11T12:00:00Z');
  const preferred = { hour: 9, minute: 0 };

  it.each([
    ['the contact zone', 'Asia/Tokyo', '2026-03-12T00:00:00.000Z'],
    ['the client zone (passed when the contact has none)', 'America/Los_Angeles', '2026-03-11T16:00:00.000Z'],
    ['UTC without a zone', undefined, '2026-03-12T09:00:00.000Z'],
    ['UTC for a name that is no zone', 'Not/A_Zone', '2026-03-12T09:00:00.000Z'],
    ['an alias resolved to its IANA zone (EST, daylight time by then)', 'EST', '2026-03-11T13:00:00.000Z'],
  ])('reads the preferred time in %s', (_, zone, expected) => {
    expect(computeSendTime({ due, preferred, ...(zone ? { zone } : {}) }).at.toISOString()).toBe(expected);
  });

  it('reads quiet hours in a zone with a 45-minute offset (Asia/Kathmandu, +05:45)', () => {
    const result = computeSendTime({
      due: new Date('2026-03-11T17:00:00Z'),
      zone: 'Asia/Kathmandu',
      quietHours: { start: 22, end: 7 },
    });
    expect(result.at.toISOString()).toBe('2026-03-12T01:15:00.000Z'); // 07:00 local
  });
});

describe('computeSendTime: impossible rules and bad input', () => {
  it.each([
    ['no allowed day', { allowedDays: [] }],
    [
      'a window inside the quiet hours',
      { sendWindow: { startHour: 9, endHour: 17 }, quietHours: { start: 8, end: 18 } },
    ],
    [
      'quiet hours covering the window across midnight',
      { sendWindow: { startHour: 23, endHour: 2 }, quietHours: { start: 22, end: 3 } },
    ],
  ])('throws NoSendTimeError for %s, quickly', (_, rules) => {
    const started = performance.now();
    expect(() => computeSendTime({ due: new Date('2026-03-11T12:00:00Z'), zone: NY, ...rules })).toThrow(
      NoSendTimeError,
    );
    expect(performance.now() - started).toBeLessThan(250);
  });

  it('names the reason and zone on the error', () => {
    const error = (() => {
      try {
        computeSendTime({ due: new Date('2026-03-11T12:00:00Z'), zone: PARIS, allowedDays: [] });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toMatchObject({ name: 'NoSendTimeError', reason: 'no_send_time', zone: PARIS });
  });

  it.each([
    ['an invalid date', { due: new Date(Number.NaN) }],
    ['a preferred hour of 24', { due: new Date(0), preferred: { hour: 24, minute: 0 } }],
    ['a preferred minute of 60', { due: new Date(0), preferred: { hour: 9, minute: 60 } }],
    ['a window hour of 24', { due: new Date(0), sendWindow: { endHour: 24 } }],
    ['a weekday of 0', { due: new Date(0), allowedDays: [0] }],
    ['a fractional quiet hour', { due: new Date(0), quietHours: { start: 1.5, end: 3 } }],
  ])('throws RangeError for %s', (_, input) => {
    expect(() => computeSendTime(input as SendTimeInput)).toThrow(RangeError);
  });
});
