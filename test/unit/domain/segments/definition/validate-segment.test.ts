import { describe, expect, it } from 'vitest';
import { SEGMENT_LIMITS } from '../../../../../shared/public/segment-rules.js';
import { specIdOf } from '../../../../../shared/domain/segments/definition/specs.js';
import { validateSegment } from '../../../../../shared/domain/segments/definition/validate-segment.js';

const counted = (event: string, extra: Record<string, unknown> = {}) => ({
  on: 'event_count',
  event,
  op: 'at_least',
  count: 1,
  ...extra,
});
/** Spec ids of `n` counters other segments keep (types other0 … other<n-1>). */
const othersKeeping = (n: number) => new Set(Array.from({ length: n }, (_, i) => specIdOf({ type: `other${i}` })));
const refs = (specs = 0) => ({ topicIds: new Set([1, 2]), otherSpecIds: othersKeeping(specs) });

describe('validateSegment', () => {
  it('answers a definition with no issue as parsed', () => {
    // Prepare
    const definition = {
      match: 'any',
      groups: [
        { match: 'all', conditions: [{ on: 'topic', topic_id: 2, op: 'subscribed' }, counted('login')] },
        { match: 'all', conditions: [{ on: 'subscription', op: 'subscribed' }] },
      ],
    };

    // Act
    const result = validateSegment(definition, refs(SEGMENT_LIMITS.eventSpecsPerClient - 1));

    // Assess
    expect(result).toEqual({ definition, issues: [] });
  });

  it('names a topic that is not the client’s as a reference at its path', () => {
    // Act
    const { issues } = validateSegment(
      { match: 'all', groups: [{ match: 'all', conditions: [{ on: 'topic', topic_id: 9, op: 'subscribed' }] }] },
      refs(),
    );

    // Assess
    expect(issues).toEqual([
      {
        path: 'groups.0.conditions.0.topic_id',
        condition: 'reference',
        error: 'Must name one of your topics: 9 is none',
      },
    ]);
  });

  it.each([
    ['a new counter when the others keep 20', 20, [counted('signup')], ['groups.0.conditions.0']],
    [
      'the second new counter when the others keep 19',
      19,
      [counted('signup'), counted('login')],
      ['groups.0.conditions.1'],
    ],
  ])('refuses %s (max)', (_name, kept, conditions, paths) => {
    // Act
    const { issues } = validateSegment({ match: 'all', groups: [{ match: 'all', conditions }] }, refs(kept));

    // Assess
    expect(issues.map((i) => [i.path, i.condition])).toEqual(paths.map((p) => [p, 'max']));
  });

  it.each([
    ['a counter the others keep already', [counted('other3', { op: 'exactly', count: 4, within_days: 9 })]],
    ['the same counter twice', [counted('signup'), counted('signup', { op: 'at_most', count: 2 })]],
    [
      'the same counter with its conditions in another order',
      [
        counted('buy', {
          conditions: [
            { on: 'event', path: 'plan', op: 'eq', value: 'pro' },
            { on: 'event', path: 'amount', op: 'gt', value: 5 },
          ],
        }),
        counted('buy', {
          conditions: [
            { on: 'event', path: 'amount', op: 'gt', value: 5 },
            { on: 'event', value: 'pro', op: 'eq', path: 'plan' },
          ],
        }),
      ],
    ],
  ])('takes %s when the others keep 19 (one counter more)', (_name, conditions) => {
    // Act
    const { issues } = validateSegment({ match: 'all', groups: [{ match: 'all', conditions }] }, refs(19));

    // Assess
    expect(issues).toEqual([]);
  });

  it('refuses a definition over 8 KB as a whole', () => {
    // Prepare: ten conditions of a 900-character value each, every one within its own bounds
    const definition = {
      match: 'all',
      groups: [
        {
          match: 'all',
          conditions: Array.from({ length: 10 }, () => ({
            on: 'custom_field',
            name: 'bio',
            op: 'eq',
            value: 'x'.repeat(900),
          })),
        },
      ],
    };
    const bytes = new TextEncoder().encode(JSON.stringify(definition)).length;

    // Act
    const { issues } = validateSegment(definition, refs());

    // Assess
    expect(bytes).toBeGreaterThan(SEGMENT_LIMITS.definitionBytes);
    expect(issues).toEqual([
      {
        path: '',
        condition: 'max',
        error: `Must be at most ${SEGMENT_LIMITS.definitionBytes} bytes as JSON (it is ${bytes})`,
      },
    ]);
  });

  it('says every issue at once, the stored-data ones beside a wrong condition', () => {
    // Act
    const { definition, issues } = validateSegment(
      {
        match: 'all',
        groups: [
          {
            match: 'all',
            conditions: [
              { on: 'topic', topic_id: 7, op: 'subscribed' },
              counted('login', { count: 0 }),
              { on: 'engagement', op: 'never_opened', within_days: 3 },
            ],
          },
          { match: 'all', conditions: [counted('signup')] },
        ],
      },
      refs(20),
    );

    // Assess
    expect(definition).toBeUndefined();
    expect(issues.map((i) => [i.path, i.condition])).toEqual([
      ['groups.0.conditions.1.count', 'min'],
      ['groups.0.conditions.2.within_days', 'format'],
      ['groups.0.conditions.0.topic_id', 'reference'],
      ['groups.1.conditions.0', 'max'],
    ]);
  });
});
