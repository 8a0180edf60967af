import { describe, expect, it } from 'vitest';
import { segmentConditionHolds, segmentHolds } from '../../../../../shared/domain/segments/definition/evaluate.js';
import { leafSpecId } from '../../../../../shared/domain/segments/definition/specs.js';
import type {
  ContactCounters,
  SegmentCondition,
  SegmentDefinition,
} from '../../../../../shared/domain/segments/definition/types.js';
import { allOf, contactWith, DAY, daysAgo, NOW, secondsAgo, topics } from './segment-fixtures.js';

const holds = (condition: SegmentCondition, fields: Record<string, unknown> = {}, counters?: ContactCounters) =>
  segmentConditionHolds(condition, { contact: contactWith(fields), topics, ...(counters ? { counters } : {}) }, NOW);

describe('segmentConditionHolds', () => {
  it.each<[string, SegmentCondition, Record<string, unknown>, boolean]>([
    ['a custom field compared typed', { on: 'custom_field', name: 'seats', op: 'gt', value: 10 }, {}, true],
    ['a custom field the contact lacks', { on: 'custom_field', name: 'nope', op: 'eq', value: 1 }, {}, false],
    ['a contact field', { on: 'contact', field: 'email', op: 'contains', value: '@example' }, {}, true],
    [
      'a contact date as an instant',
      { on: 'contact', field: 'created_at', op: 'lt', value: '2026-01-15T13:00:00+01:00' },
      {},
      false,
    ],
    ['a tag', { on: 'tag', op: 'has_not', tag: 'vip' }, {}, false],
    ['a topic by its default', { on: 'topic', topic_id: 1, op: 'subscribed' }, {}, true],
    ['a topic the contact chose to leave', { on: 'topic', topic_id: 1, op: 'unsubscribed' }, { topic_1: false }, true],
    [
      'a topic after leaving all marketing mail',
      { on: 'topic', topic_id: 1, op: 'subscribed' },
      { is_subscribed: false },
      false,
    ],
  ])('reads %s as the journeys do', (_name, condition, fields, expected) => {
    expect(holds(condition, fields)).toBe(expected);
  });

  it.each<[string, Record<string, unknown>, [boolean, boolean, boolean]]>([
    ['subscribed', {}, [true, false, false]],
    ['unsubscribed by a link', { is_subscribed: false, unsubscribe_reason: 'unsubscribe_link' }, [false, true, false]],
    ['hard-bounced', { is_subscribed: false, unsubscribe_reason: 'hard_bounce' }, [false, true, true]],
    ['complained', { is_subscribed: false, unsubscribe_reason: 'complaint' }, [false, true, true]],
  ])('reads the subscription of a contact %s', (_name, fields, [subscribed, unsubscribed, suppressed]) => {
    // Act
    const answers = (['subscribed', 'unsubscribed', 'suppressed'] as const).map((op) =>
      holds({ on: 'subscription', op }, fields),
    );

    // Assess
    expect(answers).toEqual([subscribed, unsubscribed, suppressed]);
  });

  it.each<[string, SegmentCondition, string | undefined, boolean]>([
    [
      'within 7 days, 6 days ago',
      { on: 'date', field: 'last_activity_at', op: 'within_days', value: 7 },
      daysAgo(6),
      true,
    ],
    [
      'within 7 days, exactly 7 days ago',
      { on: 'date', field: 'last_activity_at', op: 'within_days', value: 7 },
      daysAgo(7),
      false,
    ],
    [
      'within 7 days, 1 ms short of 7 days ago',
      { on: 'date', field: 'last_activity_at', op: 'within_days', value: 7 },
      new Date(NOW.getTime() - 7 * DAY + 1).toISOString(),
      true,
    ],
    [
      'within 7 days, in the future',
      { on: 'date', field: 'last_activity_at', op: 'within_days', value: 7 },
      daysAgo(-2),
      true,
    ],
    ['within 7 days, never', { on: 'date', field: 'last_activity_at', op: 'within_days', value: 7 }, undefined, false],
    [
      'not within 7 days, exactly 7 days ago',
      { on: 'date', field: 'last_activity_at', op: 'not_within_days', value: 7 },
      daysAgo(7),
      true,
    ],
    [
      'not within 7 days, 6 days ago',
      { on: 'date', field: 'last_activity_at', op: 'not_within_days', value: 7 },
      daysAgo(6),
      false,
    ],
    [
      'not within 7 days, never',
      { on: 'date', field: 'last_activity_at', op: 'not_within_days', value: 7 },
      undefined,
      true,
    ],
    [
      'before an instant in another offset',
      { on: 'date', field: 'last_activity_at', op: 'before', value: '2026-11-28T13:00:00+02:00' },
      '2026-11-28T10:59:59.999Z',
      true,
    ],
    [
      'before, the same instant',
      { on: 'date', field: 'last_activity_at', op: 'before', value: '2026-11-28T13:00:00+02:00' },
      '2026-11-28T11:00:00.000Z',
      false,
    ],
    [
      'after, later',
      { on: 'date', field: 'last_activity_at', op: 'after', value: '2026-11-28T11:00:00Z' },
      '2026-11-28T11:00:00.001Z',
      true,
    ],
    [
      'after, never',
      { on: 'date', field: 'last_activity_at', op: 'after', value: '2026-11-28T11:00:00Z' },
      undefined,
      false,
    ],
    ['exists', { on: 'date', field: 'last_activity_at', op: 'exists' }, daysAgo(100), true],
    ['not_exists, never', { on: 'date', field: 'last_activity_at', op: 'not_exists' }, undefined, true],
  ])('reads a date %s', (_name, condition, at, expected) => {
    expect(holds(condition, at === undefined ? {} : { last_activity_at: at })).toBe(expected);
  });

  it.each<[string, 'human_opened' | 'human_clicked' | 'never_opened', Record<string, unknown>, boolean]>([
    ['human_opened ever, 4 opened', 'human_opened', {}, true],
    ['human_opened ever, none opened', 'human_opened', { total_emails_opened: 0 }, false],
    ['human_clicked ever, none clicked', 'human_clicked', { total_emails_clicked: 0 }, false],
    ['never_opened, none opened', 'never_opened', { total_emails_opened: 0 }, true],
    ['never_opened, 4 opened', 'never_opened', {}, false],
  ])('reads engagement %s', (_name, op, fields, expected) => {
    expect(holds({ on: 'engagement', op }, fields)).toBe(expected);
  });

  it.each<[string, 'human_opened' | 'human_clicked', Record<string, unknown>, boolean]>([
    ['opened 29 days ago', 'human_opened', { last_email_opened_at: daysAgo(29) }, true],
    ['opened 30 days ago', 'human_opened', { last_email_opened_at: daysAgo(30) }, false],
    ['clicked 2 days ago', 'human_clicked', { last_email_clicked_at: daysAgo(2) }, true],
    ['opened but never clicked', 'human_clicked', { last_email_opened_at: daysAgo(2) }, false],
  ])('reads engagement within 30 days: %s', (_name, op, fields, expected) => {
    expect(holds({ on: 'engagement', op, within_days: 30 }, fields)).toBe(expected);
  });
});

describe('event_count', () => {
  const leaf = (op: 'at_least' | 'at_most' | 'exactly', count: number, within_days?: number): SegmentCondition => ({
    on: 'event_count',
    event: 'login',
    op,
    count,
    ...(within_days !== undefined ? { within_days } : {}),
  });
  const countersOf = (condition: SegmentCondition, recentDays: number[], total: number): ContactCounters => {
    const spec = leafSpecId(condition as Extract<SegmentCondition, { on: 'event_count' }>);
    return { ev_v: 1, recent: { [spec]: recentDays.map(secondsAgo) }, total: { [spec]: total } };
  };

  it.each<[string, SegmentCondition, number[], number, boolean]>([
    ['at least 2 within 7 days, 2 inside', leaf('at_least', 2, 7), [1, 6.9], 5, true],
    ['at least 2 within 7 days, the 2nd exactly 7 days old', leaf('at_least', 2, 7), [1, 7], 5, false],
    ['at most 1 within 7 days, 2 inside', leaf('at_most', 1, 7), [1, 2], 2, false],
    ['at most 1 within 7 days, 1 inside', leaf('at_most', 1, 7), [1, 8], 2, true],
    ['exactly 0 within 7 days, none inside', leaf('exactly', 0, 7), [8], 1, true],
    ['exactly 2 within 30 days, 3 inside', leaf('exactly', 2, 30), [1, 2, 3], 3, false],
    ['at least 3 ever', leaf('at_least', 3), [1], 3, true],
    ['at most 2 ever, 3 counted', leaf('at_most', 2), [1], 3, false],
    ['exactly 0 ever, no counters', leaf('exactly', 0), [], 0, true],
  ])('%s', (_name, condition, recentDays, total, expected) => {
    // Prepare
    const counters = countersOf(condition, recentDays, total);

    // Act
    const answer = holds(condition, {}, total === 0 ? undefined : counters);

    // Assess
    expect(answer).toBe(expected);
  });

  it('reads the counter of its own type and conditions only', () => {
    // Prepare: counters kept for a login spec with a condition; the leaf has none
    const withCondition = {
      on: 'event_count',
      event: 'login',
      op: 'at_least',
      count: 1,
      conditions: [{ on: 'event', path: 'plan', op: 'eq', value: 'pro' }],
    } as const satisfies SegmentCondition;
    const counters = countersOf(withCondition, [1], 1);

    // Act / Assess
    expect(holds(withCondition, {}, counters)).toBe(true);
    expect(holds(leaf('at_least', 1), {}, counters)).toBe(false);
  });
});

describe('segmentHolds', () => {
  const isPro: SegmentCondition = { on: 'custom_field', name: 'plan', op: 'eq', value: 'pro' };
  const isVip: SegmentCondition = { on: 'tag', op: 'has', tag: 'vip' };
  const isBeta: SegmentCondition = { on: 'tag', op: 'has', tag: 'beta' };

  it.each<[string, SegmentDefinition, boolean]>([
    ['all of one group, every condition holding', allOf(isPro, isVip), true],
    ['all of one group, one failing', allOf(isPro, isBeta), false],
    ['any within a group', { match: 'all', groups: [{ match: 'any', conditions: [isBeta, isVip] }] }, true],
    [
      'any of groups, one holding',
      {
        match: 'any',
        groups: [
          { match: 'all', conditions: [isBeta] },
          { match: 'all', conditions: [isPro] },
        ],
      },
      true,
    ],
    [
      'all of groups, one failing',
      {
        match: 'all',
        groups: [
          { match: 'any', conditions: [isBeta] },
          { match: 'all', conditions: [isPro] },
        ],
      },
      false,
    ],
  ])('%s', (_name, definition, expected) => {
    expect(segmentHolds(definition, { contact: contactWith() }, NOW)).toBe(expected);
  });
});
