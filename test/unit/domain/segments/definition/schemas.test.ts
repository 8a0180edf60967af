import { describe, expect, it } from 'vitest';
import { SegmentDefinitionSchema } from '../../../../../shared/domain/segments/definition/schemas.js';
import { validateSegment } from '../../../../../shared/domain/segments/definition/validate-segment.js';

const wrap = (condition: unknown) => ({ match: 'all', groups: [{ match: 'any', conditions: [condition] }] });

describe('SegmentDefinitionSchema', () => {
  it.each([
    ['a contact field', { on: 'contact', field: 'email', op: 'contains', value: '@example.com' }],
    ['a custom field', { on: 'custom_field', name: 'plan', op: 'eq', value: 'pro' }],
    ['a tag', { on: 'tag', op: 'has', tag: 'vip' }],
    ['a topic', { on: 'topic', topic_id: 1, op: 'unsubscribed' }],
    ['the subscription', { on: 'subscription', op: 'suppressed' }],
    ['a date before an instant', { on: 'date', field: 'created_at', op: 'before', value: '2026-01-01T00:00:00+02:00' }],
    ['a date window', { on: 'date', field: 'last_email_clicked_at', op: 'not_within_days', value: 365 }],
    ['a date present', { on: 'date', field: 'last_purchase_at', op: 'exists' }],
    [
      'an event count with conditions and a window',
      {
        on: 'event_count',
        event: 'order.placed',
        conditions: [{ on: 'event', path: 'amount', op: 'gte', value: 100 }],
        op: 'at_least',
        count: 50,
        within_days: 1,
      },
    ],
    ['at most 0 events ever', { on: 'event_count', event: 'login', op: 'at_most', count: 0 }],
    ['engagement within days', { on: 'engagement', op: 'human_clicked', within_days: 30 }],
    ['never opened', { on: 'engagement', op: 'never_opened' }],
    ['a broadcast opened', { on: 'engagement', op: 'human_opened', source: { broadcast_id: 7 } }],
    [
      'a journey clicked within days',
      { on: 'engagement', op: 'human_clicked', within_days: 14, source: { journey_id: 1001 } },
    ],
    ['a broadcast not opened', { on: 'engagement', op: 'not_opened', source: { broadcast_id: 7 } }],
  ])('takes %s', (_name, condition) => {
    // Prepare
    const definition = wrap(condition);

    // Act
    const parsed = SegmentDefinitionSchema.safeParse(definition);

    // Assess: read back exactly as written
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual(definition);
  });

  it.each([
    [
      'a date window of 0 days',
      { on: 'date', field: 'created_at', op: 'within_days', value: 0 },
      'groups.0.conditions.0.value',
      'min',
    ],
    [
      'a date window over 365 days',
      { on: 'date', field: 'created_at', op: 'within_days', value: 366 },
      'groups.0.conditions.0.value',
      'max',
    ],
    [
      'a window in days that is text',
      { on: 'date', field: 'created_at', op: 'within_days', value: '3' },
      'groups.0.conditions.0.value',
      'format',
    ],
    [
      'before with a number',
      { on: 'date', field: 'created_at', op: 'before', value: 3 },
      'groups.0.conditions.0.value',
      'format',
    ],
    [
      'before with no instant',
      { on: 'date', field: 'created_at', op: 'after' },
      'groups.0.conditions.0.value',
      'required',
    ],
    [
      'exists with a value',
      { on: 'date', field: 'created_at', op: 'exists', value: 3 },
      'groups.0.conditions.0.value',
      'format',
    ],
    [
      'a date field that is not one',
      { on: 'date', field: 'updated_at', op: 'exists' },
      'groups.0.conditions.0.field',
      'enum',
    ],
    [
      'at least 0 events',
      { on: 'event_count', event: 'login', op: 'at_least', count: 0 },
      'groups.0.conditions.0.count',
      'min',
    ],
    [
      'a count over 50',
      { on: 'event_count', event: 'login', op: 'exactly', count: 51 },
      'groups.0.conditions.0.count',
      'max',
    ],
    [
      'an event window of 0 days',
      { on: 'event_count', event: 'login', op: 'exactly', count: 1, within_days: 0 },
      'groups.0.conditions.0.within_days',
      'min',
    ],
    [
      'six event conditions',
      {
        on: 'event_count',
        event: 'login',
        op: 'at_least',
        count: 1,
        conditions: Array.from({ length: 6 }, () => ({ on: 'event', path: 'plan', op: 'exists' })),
      },
      'groups.0.conditions.0.conditions',
      'max',
    ],
    [
      'an event type that is no slug',
      { on: 'event_count', event: 'a b', op: 'at_least', count: 1 },
      'groups.0.conditions.0.event',
      'format',
    ],
    [
      'never opened within days',
      { on: 'engagement', op: 'never_opened', within_days: 7 },
      'groups.0.conditions.0.within_days',
      'format',
    ],
    [
      'a source on never_opened',
      { on: 'engagement', op: 'never_opened', source: { journey_id: 1000 } },
      'groups.0.conditions.0.source',
      'format',
    ],
    ['not_opened without a source', { on: 'engagement', op: 'not_opened' }, 'groups.0.conditions.0.source', 'required'],
    [
      'a window on not_opened',
      { on: 'engagement', op: 'not_opened', within_days: 7, source: { broadcast_id: 3 } },
      'groups.0.conditions.0.within_days',
      'format',
    ],
    [
      'a source naming both kinds',
      { on: 'engagement', op: 'human_opened', source: { journey_id: 1000, broadcast_id: 3 } },
      'groups.0.conditions.0.source',
      'format',
    ],
    [
      'a source id of 0',
      { on: 'engagement', op: 'human_clicked', source: { broadcast_id: 0 } },
      'groups.0.conditions.0.source',
      'format',
    ],
    ['an unknown kind', { on: 'segment', segment_id: 1 }, 'groups.0.conditions.0.on', 'enum'],
    ['a subscription op that is not one', { on: 'subscription', op: 'bounced' }, 'groups.0.conditions.0.op', 'enum'],
  ])('refuses %s at its path', (_name, condition, path, expected) => {
    // Act
    const { issues } = validateSegment(wrap(condition));

    // Assess
    expect(issues).toContainEqual(expect.objectContaining({ path, condition: expected }));
  });

  it.each([
    ['no groups', { match: 'all', groups: [] }, 'groups', 'min'],
    [
      'six groups',
      { match: 'all', groups: Array.from({ length: 6 }, () => wrap({ on: 'tag', op: 'has', tag: 'a' }).groups[0]) },
      'groups',
      'max',
    ],
    ['an empty group', { match: 'all', groups: [{ match: 'all', conditions: [] }] }, 'groups.0.conditions', 'min'],
    [
      'eleven conditions',
      {
        match: 'all',
        groups: [{ match: 'all', conditions: Array.from({ length: 11 }, () => ({ on: 'tag', op: 'has', tag: 'a' })) }],
      },
      'groups.0.conditions',
      'max',
    ],
    [
      'a match that is not one',
      { match: 'some', groups: wrap({ on: 'tag', op: 'has', tag: 'a' }).groups },
      'match',
      'enum',
    ],
    ['an unknown member', { ...wrap({ on: 'tag', op: 'has', tag: 'a' }), name: 'x' }, 'name', 'format'],
  ])('refuses %s', (_name, definition, path, expected) => {
    // Act
    const { issues } = validateSegment(definition);

    // Assess
    expect(issues).toContainEqual(expect.objectContaining({ path, condition: expected }));
  });
});
