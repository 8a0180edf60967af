import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  computeSendTime,
  NoSendTimeError,
  type SendTimeInput,
} from '../../../../shared/domain/scheduling/send-time.js';

const HOUR = 3_600_000;
const QUARTER = HOUR / 4;

/** Zones with DST both ways, half-hour DST (Lord Howe), midnight transitions (Santiago) and odd offsets. */
const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'America/Santiago',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'America/St_Johns',
  'Asia/Tokyo',
];
/** 2026 transitions of those zones, so many cases land next to one. */
const TRANSITIONS = [
  '2026-03-08T07:00Z',
  '2026-11-01T06:00Z',
  '2026-03-29T01:00Z',
  '2026-10-25T01:00Z',
  '2026-04-04T15:00Z',
  '2026-10-03T15:30Z',
  '2026-04-05T03:00Z',
  '2026-09-06T04:00Z',
  '2026-04-04T14:00Z',
  '2026-09-26T14:00Z',
].map(Date.parse);

const hour = fc.integer({ min: 0, max: 23 });
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const due = fc.oneof(
  fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2027, 0, 1) }),
  fc
    .tuple(fc.constantFrom(...TRANSITIONS), fc.integer({ min: -3 * 24 * HOUR, max: 3 * 24 * HOUR }))
    .map(([t, d]) => t + d),
);
const input = fc.record({
  due: due.map((ms) => new Date(ms)),
  zone: fc.constantFrom(...ZONES),
  preferred: optional(
    fc.record({ hour, minute: fc.oneof(fc.constantFrom(0, 15, 30, 45), fc.integer({ min: 0, max: 59 })) }),
  ),
  sendWindow: optional(fc.record({ startHour: optional(hour), endHour: optional(hour) })),
  allowedDays: optional(fc.subarray([1, 2, 3, 4, 5, 6, 7])),
  quietHours: optional(fc.record({ start: hour, end: hour })),
}) as fc.Arbitrary<SendTimeInput & { zone: string }>;

/** The hours a range covers, counted round the clock from its start (an independent reading of the rules). */
function hoursFrom(start: number, end: number): Set<number> {
  const hours = new Set<number>();
  for (let h = start; h !== end; h = (h + 1) % 24) hours.add(h);
  return hours;
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const clocks = new Map<string, Intl.DateTimeFormat>();
/** ISO weekday and hour at `ts`, read with Intl (not luxon, which the code under test uses). */
function clock(zone: string, ts: number): { weekday: number; hour: number } {
  let format = clocks.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short', hour: '2-digit', hourCycle: 'h23' });
    clocks.set(zone, format);
  }
  const [weekday, hour] = format.format(ts).split(', '); // "Sun, 00"
  return { weekday: WEEKDAYS.indexOf(weekday!) + 1, hour: Number(hour) };
}

/** Whether the rules allow sending at `ts`. */
function allowedAt(rules: SendTimeInput & { zone: string }, ts: number): boolean {
  const local = clock(rules.zone, ts);
  if (rules.allowedDays && !rules.allowedDays.includes(local.weekday)) return false;
  const start = rules.sendWindow?.startHour ?? 0;
  const end = rules.sendWindow?.endHour ?? 0; // 0 = midnight = the end of the day
  if (rules.sendWindow && start !== end && !hoursFrom(start, end).has(local.hour)) return false;
  const quiet = rules.quietHours;
  return !(quiet && hoursFrom(quiet.start, quiet.end).has(local.hour));
}

/** The first quarter hour in [from, until) the rules allow, if any. */
function firstAllowedQuarter(rules: SendTimeInput & { zone: string }, from: number, until: number): number | undefined {
  for (let ts = Math.ceil(from / QUARTER) * QUARTER; ts < until; ts += QUARTER) if (allowedAt(rules, ts)) return ts;
  return undefined;
}

const PARAMS = { seed: 20260308, numRuns: 300 };

describe('computeSendTime (property)', () => {
  it('is never before due, always allowed, and throws only when nothing is allowed for days', () => {
    fc.assert(
      fc.property(input, (rules) => {
        const dueMs = rules.due.getTime();
        let result: ReturnType<typeof computeSendTime>;
        try {
          result = computeSendTime(rules);
        } catch (error) {
          expect(error).toBeInstanceOf(NoSendTimeError);
          // The search starts within ~a day of due and covers 8 days: nothing may be allowed in between.
          expect(firstAllowedQuarter(rules, dueMs + 26 * HOUR, dueMs + 8 * 24 * HOUR)).toBeUndefined();
          return;
        }
        const at = result.at.getTime();
        expect(at).toBeGreaterThanOrEqual(dueMs);
        expect(allowedAt(rules, at)).toBe(true);
        expect(result.reason === undefined).toBe(at === dueMs);
      }),
      PARAMS,
    );
  });

  it('in mode 0 picks the earliest allowed instant', () => {
    fc.assert(
      fc.property(input, (rules) => {
        const immediate = { ...rules, preferred: undefined };
        let at: number;
        try {
          at = computeSendTime(immediate).at.getTime();
        } catch {
          return;
        }
        const dueMs = rules.due.getTime();
        if (at === dueMs) return;
        expect(allowedAt(rules, dueMs)).toBe(false);
        // Local hours begin on UTC quarter hours in every zone here, so these are the only instants to check.
        expect(firstAllowedQuarter(rules, dueMs, at)).toBeUndefined();
      }),
      PARAMS,
    );
  });

  it('in mode 1 without rules in the way sends at the preferred wall time within a day', () => {
    fc.assert(
      fc.property(input, (rules) => {
        const preferred = rules.preferred ?? { hour: 9, minute: 0 };
        const { at, reason } = computeSendTime({ due: rules.due, zone: rules.zone, preferred });
        const local = DateTime.fromJSDate(at, { zone: rules.zone });
        // The preferred wall time that day, or where a spring-forward gap moves it (luxon moves it the same way).
        const intended = DateTime.fromObject(
          { year: local.year, month: local.month, day: local.day, ...preferred },
          { zone: rules.zone },
        );
        expect(local.toFormat('HH:mm')).toBe(intended.toFormat('HH:mm'));
        expect(at.getTime() - rules.due.getTime()).toBeLessThanOrEqual(25 * HOUR);
        expect(reason === undefined || reason === 'preferred_time').toBe(true);
      }),
      PARAMS,
    );
  });
});
