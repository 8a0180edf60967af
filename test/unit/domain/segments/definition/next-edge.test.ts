import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { segmentHolds } from '../../../../../shared/domain/segments/definition/evaluate.js';
import { nextEdgeOf } from '../../../../../shared/domain/segments/definition/next-edge.js';
import { leafSpecId } from '../../../../../shared/domain/segments/definition/specs.js';
import type {
  ContactCounters,
  EngagementFacts,
  SegmentCondition,
  SegmentDefinition,
  SegmentInput,
} from '../../../../../shared/domain/segments/definition/types.js';
import { allOf, contactWith, DAY, daysAgo, NOW, secondsAgo } from './segment-fixtures.js';

type EventCount = Extract<SegmentCondition, { on: 'event_count' }>;
const counted = (op: EventCount['op'], count: number, within_days?: number): EventCount => ({
  on: 'event_count',
  event: 'login',
  op,
  count,
  ...(within_days !== undefined ? { within_days } : {}),
});
const countersOf = (condition: EventCount, recentDays: number[]): ContactCounters => ({
  ev_v: 1,
  recent: { [leafSpecId(condition)]: recentDays.map(secondsAgo) },
  total: { [leafSpecId(condition)]: recentDays.length },
});
const inDays = (days: number) => new Date(NOW.getTime() + days * DAY);

describe('nextEdgeOf', () => {
  it.each<[string, SegmentCondition, Record<string, unknown>, Date | undefined]>([
    [
      'within 7 days of an activity 2 days ago',
      { on: 'date', field: 'last_activity_at', op: 'within_days', value: 7 },
      { last_activity_at: daysAgo(2) },
      inDays(5),
    ],
    [
      'not within 14 days of an activity 2 days ago',
      { on: 'date', field: 'last_activity_at', op: 'not_within_days', value: 14 },
      { last_activity_at: daysAgo(2) },
      inDays(12),
    ],
    [
      'within 7 days of an activity 9 days ago (past)',
      { on: 'date', field: 'last_activity_at', op: 'within_days', value: 7 },
      { last_activity_at: daysAgo(9) },
      undefined,
    ],
    [
      'within 7 days of no activity',
      { on: 'date', field: 'last_activity_at', op: 'within_days', value: 7 },
      {},
      undefined,
    ],
    [
      'before an instant',
      { on: 'date', field: 'last_activity_at', op: 'before', value: '2027-01-01T00:00:00Z' },
      { last_activity_at: daysAgo(2) },
      undefined,
    ],
    [
      'clicked within 30 days, 10 days ago',
      { on: 'engagement', op: 'human_clicked', within_days: 30 },
      { last_email_clicked_at: daysAgo(10) },
      inDays(20),
    ],
    ['opened ever', { on: 'engagement', op: 'human_opened' }, { last_email_opened_at: daysAgo(10) }, undefined],
    ['a tag', { on: 'tag', op: 'has', tag: 'vip' }, {}, undefined],
  ])('%s', (_name, condition, fields, edge) => {
    expect(nextEdgeOf([allOf(condition)], { contact: contactWith(fields) }, NOW)).toEqual(edge);
  });

  it.each<[string, EventCount, number[], Date | undefined]>([
    ['at least 2 within 7 days: the 2nd newest leaves', counted('at_least', 2, 7), [1, 3, 5], inDays(4)],
    [
      'at least 2 within 7 days, only 1 inside: nothing comes back by itself',
      counted('at_least', 2, 7),
      [1, 8],
      undefined,
    ],
    ['at most 1 within 7 days: the 2nd newest leaves', counted('at_most', 1, 7), [1, 3, 5], inDays(4)],
    ['at most 0 within 7 days: the newest leaves', counted('at_most', 0, 7), [1, 3], inDays(6)],
    ['exactly 2 within 7 days with 3 inside: the 3rd leaves first', counted('exactly', 2, 7), [1, 3, 5], inDays(2)],
    ['exactly 2 within 7 days with 2 inside: the 2nd leaves', counted('exactly', 2, 7), [1, 3, 9], inDays(4)],
    ['at least 2 ever', counted('at_least', 2), [1, 3], undefined],
  ])('%s', (_name, condition, recentDays, edge) => {
    // Prepare
    const input: SegmentInput = { contact: contactWith(), counters: countersOf(condition, recentDays) };

    // Act / Assess
    expect(nextEdgeOf([allOf(condition)], input, NOW)).toEqual(edge);
  });

  it('answers the earliest edge across segments', () => {
    // Prepare
    const contact = contactWith({ last_activity_at: daysAgo(2), last_email_opened_at: daysAgo(1) });
    const definitions = [
      allOf({ on: 'date', field: 'last_activity_at', op: 'within_days', value: 7 }),
      allOf({ on: 'engagement', op: 'human_opened', within_days: 3 }),
    ];

    // Act / Assess
    expect(nextEdgeOf(definitions, { contact }, NOW)).toEqual(inDays(2));
  });
});

// ---- Property: the answer is constant from now until the next edge. ----

const BASE = NOW.getTime();
const RANGE = 400 * DAY;
const instant = fc.integer({ min: BASE - RANGE, max: BASE + 30 * DAY });
const optionalInstant = fc.option(instant, { nil: undefined });
const days = fc.integer({ min: 1, max: 365 });
const smallDays = fc.integer({ min: 1, max: 40 });
const DATE_FIELDS = [
  'created_at',
  'last_activity_at',
  'last_email_opened_at',
  'last_email_clicked_at',
  'last_purchase_at',
] as const;
/** Two counted event types, so several leaves read one counter. */
const EVENTS = ['login', 'buy'] as const;

const leaf: fc.Arbitrary<SegmentCondition> = fc.oneof(
  fc.record({
    on: fc.constant('date' as const),
    field: fc.constantFrom(...DATE_FIELDS),
    op: fc.constantFrom('within_days' as const, 'not_within_days' as const),
    value: fc.oneof(days, smallDays),
  }),
  fc.record({
    on: fc.constant('date' as const),
    field: fc.constantFrom(...DATE_FIELDS),
    op: fc.constantFrom('before' as const, 'after' as const),
    value: instant.map((ms) => new Date(ms).toISOString()),
  }),
  fc.record({
    on: fc.constant('date' as const),
    field: fc.constantFrom(...DATE_FIELDS),
    op: fc.constantFrom('exists' as const, 'not_exists' as const),
  }),
  fc
    .record({
      on: fc.constant('event_count' as const),
      event: fc.constantFrom(...EVENTS),
      op: fc.constantFrom('at_least' as const, 'at_most' as const, 'exactly' as const),
      count: fc.integer({ min: 0, max: 6 }),
      within_days: fc.option(smallDays, { nil: undefined }),
    })
    .map((c) => {
      const { within_days, ...rest } = c;
      const condition: EventCount = { ...rest, count: rest.op === 'at_least' ? Math.max(1, rest.count) : rest.count };
      return within_days === undefined ? condition : { ...condition, within_days };
    }),
  fc.record({
    on: fc.constant('engagement' as const),
    op: fc.constantFrom('human_opened' as const, 'human_clicked' as const),
    within_days: smallDays,
  }),
  fc.constant<SegmentCondition>({ on: 'engagement', op: 'never_opened' }),
  fc.record({
    on: fc.constant('engagement' as const),
    op: fc.constantFrom('human_opened' as const, 'human_clicked' as const),
    within_days: smallDays,
    source: fc.constant({ broadcast_id: 5 }),
  }),
  fc.constant<SegmentCondition>({ on: 'engagement', op: 'not_opened', source: { broadcast_id: 5 } }),
  fc.constant<SegmentCondition>({ on: 'tag', op: 'has', tag: 'vip' }),
);
const match = fc.constantFrom('all' as const, 'any' as const);
const definition: fc.Arbitrary<SegmentDefinition> = fc.record({
  match,
  groups: fc.array(fc.record({ match, conditions: fc.array(leaf, { minLength: 1, maxLength: 4 }) }), {
    minLength: 1,
    maxLength: 3,
  }),
});

/** The contact's dates and counters of every counter the definitions read (newest first, as kept). */
function inputOf(
  definitions: SegmentDefinition[],
  dates: (number | undefined)[],
  times: number[][],
  totals: number[],
): SegmentInput {
  const fields: Record<string, unknown> = { total_emails_opened: totals[0], total_emails_clicked: totals[1] };
  DATE_FIELDS.forEach((field, i) => {
    const at = dates[i];
    if (at !== undefined) fields[field] = new Date(at).toISOString();
  });
  const counters: ContactCounters = { ev_v: 1, recent: {}, total: {} };
  let next = 0;
  for (const d of definitions)
    for (const g of d.groups)
      for (const c of g.conditions)
        if (c.on === 'event_count') {
          const spec = leafSpecId(c);
          if (counters.recent[spec] !== undefined) continue;
          const kept = times[next++ % times.length] ?? [];
          counters.recent[spec] = kept.map((ms) => Math.floor(ms / 1000)).sort((a, b) => b - a);
          counters.total[spec] = kept.length + (totals[2] ?? 0);
        }
  // Broadcast 5's engagement from the same instants (sent, opened, clicked), so its windows meet the contact's.
  const at = (i: number) => {
    const ms = dates[i];
    return ms === undefined ? undefined : new Date(ms).toISOString();
  };
  const b5: EngagementFacts = {};
  if (at(2)) b5.sent_at = at(2);
  if (at(1)) b5.opened_at = at(1);
  if (at(3)) b5.clicked_at = at(3);
  return { contact: contactWith(fields), counters, engagement: { B5: b5 } };
}

describe('segmentHolds between now and nextEdgeOf', () => {
  it('never changes its answer before the edge', () => {
    fc.assert(
      fc.property(
        fc.array(definition, { minLength: 1, maxLength: 3 }),
        fc.array(optionalInstant, { minLength: 5, maxLength: 5 }),
        fc.array(fc.array(instant, { maxLength: 8 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 3, maxLength: 3 }),
        fc.integer({ min: BASE - 10 * DAY, max: BASE + 10 * DAY }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 }),
        (definitions, dates, times, totals, nowMs, fractions) => {
          // Prepare
          const input = inputOf(definitions, dates, times, totals);
          const now = new Date(nowMs);

          // Act
          const edge = nextEdgeOf(definitions, input, now);

          // Assess: the edge is ahead, and every instant before it answers as now does, for every definition
          if (edge !== undefined) expect(edge.getTime()).toBeGreaterThan(nowMs);
          const end = edge?.getTime() ?? nowMs + 2 * RANGE;
          const probes = [nowMs, end - 1, ...fractions.map((f) => nowMs + Math.floor(f * (end - nowMs - 1)))];
          for (const d of definitions) {
            const answer = segmentHolds(d, input, now);
            for (const at of probes) expect(segmentHolds(d, input, new Date(at))).toBe(answer);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('changes a lone window condition’s answer at the edge itself', () => {
    // Distinct event times: with two events at one instant, exactly N may skip a count and not flip.
    const windowed = leaf.filter(
      (c) =>
        (c.on === 'date' && (c.op === 'within_days' || c.op === 'not_within_days')) ||
        (c.on === 'engagement' && c.op !== 'never_opened') ||
        (c.on === 'event_count' && c.within_days !== undefined),
    );
    fc.assert(
      fc.property(
        windowed,
        fc.array(optionalInstant, { minLength: 5, maxLength: 5 }),
        fc.uniqueArray(
          instant.map((ms) => ms - (ms % 1000)),
          { maxLength: 8 },
        ),
        fc.integer({ min: BASE - 10 * DAY, max: BASE + 10 * DAY }),
        (condition, dates, times, nowMs) => {
          // Prepare
          const definitions = [allOf(condition)];
          const input = inputOf(definitions, dates, [times], [0, 0, 0]);
          const now = new Date(nowMs);

          // Act
          const edge = nextEdgeOf(definitions, input, now);

          // Assess
          if (edge === undefined) return;
          expect(segmentHolds(definitions[0]!, input, edge)).toBe(
            !segmentHolds(definitions[0]!, input, new Date(edge.getTime() - 1)),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });
});
