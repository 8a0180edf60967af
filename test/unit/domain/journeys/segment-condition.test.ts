import { describe, expect, it } from 'vitest';
import { conditionHolds } from '../../../../shared/domain/journeys/definition/conditions.js';
import type { Condition, JourneyStep } from '../../../../shared/domain/journeys/definition/types.js';
import { validateJourney, type JourneyRefs } from '../../../../shared/domain/journeys/definition/validate-journey.js';
import { journeyOf } from './definition/journey-fixtures.js';

const refs: JourneyRefs = { templateIds: new Set([1, 2]), topicIds: new Set([3]), segmentIds: new Set([7, 8]) };

const bySegment = (condition: Record<string, unknown>): JourneyStep =>
  ({
    id: 'plan',
    type: 'branch',
    branches: [{ name: 'Pro', conditions: [condition], next: 'pro' }],
    otherwise: 'other',
  }) as JourneyStep;
const send = (id: string, template_id: number): JourneyStep => ({
  id,
  type: 'send',
  template_id,
  send_time: { mode: 0 },
  next: null,
});
const journey = (condition: Record<string, unknown>) =>
  journeyOf([bySegment(condition), send('pro', 1), send('other', 2)]);
const found = (input: unknown) => validateJourney(input, refs).issues.map((i) => [i.path, i.condition, i.error]);

describe('a branch on segment membership: validation', () => {
  it('takes a segment of the client with member or not_member', () => {
    // Act
    const member = found(journey({ on: 'segment', segment_id: 7, op: 'member' }));
    const notMember = found(journey({ on: 'segment', segment_id: 8, op: 'not_member' }));

    // Assess
    expect({ member, notMember }).toEqual({ member: [], notMember: [] });
  });

  it('refuses a segment the client does not have: 422 reference at the condition’s segment_id', () => {
    // Act
    const issues = found(journey({ on: 'segment', segment_id: 99, op: 'member' }));

    // Assess
    expect(issues).toEqual([
      ['steps.0.branches.0.conditions.0.segment_id', 'reference', 'Must name one of your segments: 99 is none'],
    ]);
  });

  it('checks no stored data without refs (a shape-only validation)', () => {
    // Act
    const issues = validateJourney(journey({ on: 'segment', segment_id: 99, op: 'member' })).issues;

    // Assess
    expect(issues).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, [string, string][]]>([
    [
      'an op outside the enum',
      { on: 'segment', segment_id: 7, op: 'in' },
      [['steps.0.branches.0.conditions.0.op', 'enum']],
    ],
    ['no op', { on: 'segment', segment_id: 7 }, [['steps.0.branches.0.conditions.0.op', 'enum']]],
    ['no segment_id', { on: 'segment', op: 'member' }, [['steps.0.branches.0.conditions.0.segment_id', 'required']]],
    [
      'a segment_id that is no id',
      { on: 'segment', segment_id: 0, op: 'member' },
      [['steps.0.branches.0.conditions.0.segment_id', 'min']],
    ],
    [
      'a member of another kind',
      { on: 'segment', segment_id: 7, op: 'member', value: 1 },
      [['steps.0.branches.0.conditions.0.value', 'format']],
    ],
  ])('refuses %s at its path', (_, condition, expected) => {
    // Act
    const issues = found(journey(condition)).map(([path, condition]) => [path, condition]);

    // Assess
    expect(issues).toEqual(expected);
  });

  it('refuses a segment condition where an event is matched: the trigger’s conditions, a wait_for_event’s', () => {
    // Prepare
    const condition = { on: 'segment', segment_id: 7, op: 'member' } as const;
    const definition = journeyOf(
      [
        {
          id: 'await',
          type: 'wait_for_event',
          event: 'paid',
          conditions: [condition],
          match_key: false,
          timeout_minutes: 60,
          on_event: null,
          on_timeout: null,
        },
      ],
      {
        trigger: {
          event: 'signup',
          conditions: [condition],
          reentry: { mode: 'once' },
        },
      },
    );

    // Act
    const issues = found(definition).map(([path, condition]) => [path, condition]);

    // Assess
    expect(issues).toEqual([
      ['trigger.conditions.0.on', 'format'],
      ['steps.0.conditions.0.on', 'format'],
    ]);
  });
});

describe('a segment condition: how it reads the membership', () => {
  const member: Condition = { on: 'segment', segment_id: 7, op: 'member' };
  const notMember: Condition = { on: 'segment', segment_id: 7, op: 'not_member' };

  it.each<[string, Record<number, boolean> | undefined, boolean, boolean]>([
    ['a member', { 7: true }, true, false],
    ['not a member', { 7: false }, false, true],
    ['membership not read (outside a branch): neither holds', undefined, false, false],
    ['another segment read only: neither holds', { 8: true }, false, false],
  ])('%s', (_, segments, asMember, asNotMember) => {
    // Act
    const input = segments ? { segments } : {};
    const read = [conditionHolds(member, input), conditionHolds(notMember, input)];

    // Assess
    expect(read).toEqual([asMember, asNotMember]);
  });
});
