import { describe, expect, it } from 'vitest';
import { JOURNEY_LIMITS } from '../../../../../shared/public/journey-rules.js';
import {
  validateJourney,
  type JourneyRefs,
} from '../../../../../shared/domain/journeys/definition/validate-journey.js';
import type { JourneyDefinition, JourneyStep } from '../../../../../shared/domain/journeys/definition/types.js';
import { everyStepJourney, journeyOf } from './journey-fixtures.js';

const refs: JourneyRefs = { templateIds: new Set([1, 2, 1001]), topicIds: new Set([3, 4]), segmentIds: new Set([7]) };

const send = (id: string, next: string | null, template_id = 1): JourneyStep => ({
  id,
  type: 'send',
  template_id,
  send_time: { mode: 0 },
  next,
});
const wait = (id: string, next: string | null): JourneyStep => ({ id, type: 'wait', minutes: 5, next });
const opened = (id: string, sendStep: string, yes: string | null, no: string | null): JourneyStep => ({
  id,
  type: 'branch',
  branches: [
    { name: 'Opened', conditions: [{ on: 'engagement', send_step: sendStep, op: 'human_opened' }], next: yes },
  ],
  otherwise: no,
});

/** Path and condition of each issue, in order. */
const found = (input: unknown, r: JourneyRefs | undefined = refs) =>
  validateJourney(input, r).issues.map((i) => [i.path, i.condition]);

describe('validateJourney', () => {
  it('answers a valid definition with no issues, parsed', () => {
    // Prepare
    const definition = everyStepJourney();

    // Act
    const result = validateJourney(structuredClone(definition), refs);

    // Assess
    expect(result).toEqual({ definition, issues: [] });
  });

  it.each<[string, JourneyDefinition, [string, string][]]>([
    ['a repeated step id', journeyOf([wait('a', 'b'), wait('b', null), wait('a', null)]), [['steps.2.id', 'unique']]],
    ['an entry naming no step', journeyOf([wait('a', null)], { entry: 'zz' }), [['entry', 'reference']]],
    [
      'an edge naming no step',
      journeyOf([
        wait('a', 'b'),
        {
          id: 'b',
          type: 'wait_for_event',
          event: 'x',
          match_key: false,
          timeout_minutes: 5,
          on_event: null,
          on_timeout: 'nope',
        },
      ]),
      [['steps.1.on_timeout', 'reference']],
    ],
    ['a step no path reaches', journeyOf([wait('a', null), wait('b', null)]), [['steps.1', 'graph']]],
    ['a loop', journeyOf([wait('a', 'b'), wait('b', 'c'), wait('c', 'a')]), [['steps.2.next', 'graph']]],
    ['a step looping on itself', journeyOf([wait('a', 'a')]), [['steps.0.next', 'graph']]],
    [
      'split percentages not adding up to 100',
      journeyOf([
        {
          id: 's',
          type: 'split',
          arms: [
            { name: 'A', percent: 50, next: null },
            { name: 'B', percent: 40, next: null },
          ],
        },
      ]),
      [['steps.0.arms', 'graph']],
    ],
    [
      'engagement of a send on one path only',
      journeyOf([
        {
          id: 'pick',
          type: 'split',
          arms: [
            { name: 'A', percent: 50, next: 'mail' },
            { name: 'B', percent: 50, next: 'check' },
          ],
        },
        send('mail', 'check'),
        opened('check', 'mail', null, null),
      ]),
      [['steps.2.branches.0.conditions.0.send_step', 'reference']],
    ],
    [
      'engagement of a send after the reader',
      journeyOf([opened('check', 'mail', 'mail', null), send('mail', null)]),
      [['steps.0.branches.0.conditions.0.send_step', 'reference']],
    ],
    [
      'engagement of a step that is not a send',
      journeyOf([wait('w', 'check'), opened('check', 'w', null, null)]),
      [['steps.1.branches.0.conditions.0.send_step', 'reference']],
    ],
    [
      'engagement in the trigger',
      journeyOf([send('mail', null)], {
        trigger: {
          event: 'x',
          conditions: [{ on: 'engagement', send_step: 'mail', op: 'neither' }],
          reentry: { mode: 'once' },
        },
      }),
      [['trigger.conditions.0.send_step', 'reference']],
    ],
    [
      'match_key without a trigger key',
      journeyOf(
        [
          {
            id: 'w',
            type: 'wait_for_event',
            event: 'paid',
            match_key: true,
            timeout_minutes: 60,
            on_event: null,
            on_timeout: null,
          },
        ],
        { trigger: { event: 'ordered', reentry: { mode: 'always' } } },
      ),
      [['steps.0.match_key', 'required']],
    ],
    [
      'the trigger type among the exit events',
      journeyOf([wait('a', null)], {
        trigger: { event: 'ordered', reentry: { mode: 'always' } },
        settings: {
          category: 'marketing',
          topic_id: null,
          critical: false,
          exit_events: ['paid', 'ordered'],
          conversion_window_days: 7,
        },
      }),
      [['settings.exit_events.1', 'format']],
    ],
    [
      'a topic on transactional mail, critical on marketing mail',
      {
        ...journeyOf([wait('a', null)]),
        settings: {
          category: 'transactional',
          topic_id: 3,
          critical: true,
          exit_events: [],
          conversion_window_days: 7,
        },
      },
      [['settings.topic_id', 'read_only']],
    ],
    [
      'critical on marketing mail',
      {
        ...journeyOf([wait('a', null)]),
        settings: { category: 'marketing', topic_id: null, critical: true, exit_events: [], conversion_window_days: 7 },
      },
      [['settings.critical', 'read_only']],
    ],
    [
      'a template and topics the client does not have',
      journeyOf([send('a', 'b', 77), opened('b', 'a', null, null)], {
        trigger: {
          event: 'x',
          conditions: [{ on: 'topic', topic_id: 9, op: 'subscribed' }],
          reentry: { mode: 'once' },
        },
        settings: { category: 'marketing', topic_id: 8, critical: false, exit_events: [], conversion_window_days: 7 },
      }),
      [
        ['steps.0.template_id', 'reference'],
        ['settings.topic_id', 'reference'],
        ['trigger.conditions.0.topic_id', 'reference'],
      ],
    ],
  ])('reports %s', (_name, definition, expected) => {
    // Act
    const issues = found(definition);

    // Assess
    expect(issues).toEqual(expected);
  });

  it.each<[string, JourneyDefinition]>([
    [
      'engagement of a send every path passes, through a split and back together',
      journeyOf([
        send('mail', 'pick'),
        {
          id: 'pick',
          type: 'split',
          arms: [
            { name: 'A', percent: 33.33, next: 'w' },
            { name: 'B', percent: 33.33, next: 'check' },
            { name: 'C', percent: 33.34, next: null },
          ],
        },
        wait('w', 'check'),
        opened('check', 'mail', null, null),
      ]),
    ],
    [
      'a diamond: two branches joining (no loop)',
      journeyOf([
        {
          id: 'b',
          type: 'branch',
          branches: [{ name: 'vip', conditions: [{ on: 'tag', op: 'has', tag: 'vip' }], next: 'x' }],
          otherwise: 'y',
        },
        wait('x', 'end'),
        wait('y', 'end'),
        { id: 'end', type: 'exit' },
      ]),
    ],
  ])('finds nothing wrong with %s', (_name, definition) => {
    expect(found(definition)).toEqual([]);
  });

  it('reports every issue at once, schema and graph together, each path once', () => {
    // Prepare: a wrong template id type, an unreachable step, a loop and a dangling edge.
    const definition = journeyOf([wait('a', 'b'), wait('b', 'a'), wait('lost', 'nowhere')]) as unknown as {
      steps: Record<string, unknown>[];
    };
    definition.steps[0]!['minutes'] = 'five';
    definition.steps[2]!['next'] = 'Bad Id';

    // Act
    const result = validateJourney(definition, refs);

    // Assess
    expect(result.definition).toBeUndefined();
    expect(result.issues.map((i) => [i.path, i.condition])).toEqual([
      ['steps.0.minutes', 'type'],
      ['steps.2.next', 'format'],
      ['steps.2', 'graph'],
      ['steps.1.next', 'graph'],
    ]);
    expect(result.issues[3]!.error).toBe('Must not loop back: a → b → a');
  });

  it('gives the parsed definition beside graph issues (a draft can be diffed)', () => {
    // Prepare
    const definition = journeyOf([wait('a', null), wait('b', null)]);

    // Act
    const result = validateJourney(definition, refs);

    // Assess
    expect(result.definition).toEqual(definition);
    expect(result.issues).toHaveLength(1);
  });

  it('skips the stored-data rules without refs', () => {
    // Prepare
    const definition = journeyOf([send('a', null, 999)]);

    // Act / Assess
    expect(validateJourney(definition).issues).toEqual([]);
    expect(found(definition)).toEqual([['steps.0.template_id', 'reference']]);
  });

  it.each<[string, (j: Record<string, unknown>) => void, [string, string][]]>([
    ['an unknown member, at its own path', (j) => (j['notes'] = 'x'), [['notes', 'format']]],
    [
      'an unknown step type',
      (j) => ((j['steps'] as Record<string, unknown>[])[1]!['type'] = 'sleep'),
      [['steps.1.type', 'enum']],
    ],
    [
      'a step without a type',
      (j) => delete (j['steps'] as Record<string, unknown>[])[1]!['type'],
      [['steps.1.type', 'required']],
    ],
    ['a missing trigger', (j) => delete j['trigger'], [['trigger', 'required']]],
  ])('maps the schema: %s', (_name, mutate, expected) => {
    // Prepare
    const definition = everyStepJourney() as unknown as Record<string, unknown>;
    mutate(definition);

    // Act / Assess
    expect(found(definition)).toEqual(expected);
  });

  it(`refuses a definition over ${JOURNEY_LIMITS.definitionBytes} bytes as JSON`, () => {
    // Prepare: 50 steps with long names and many conditions, valid otherwise.
    const steps: JourneyStep[] = Array.from({ length: 50 }, (_, i) => ({
      id: `s${i}`,
      name: 'n'.repeat(100),
      type: 'branch',
      branches: Array.from({ length: 10 }, () => ({
        name: 'b'.repeat(100),
        conditions: [{ on: 'event' as const, path: 'plan', op: 'eq' as const, value: 'v'.repeat(1000) }],
        next: i < 49 ? `s${i + 1}` : null,
      })),
      otherwise: i < 49 ? `s${i + 1}` : null,
    }));
    const definition = journeyOf(steps);

    // Act
    const issues = validateJourney(definition, refs).issues;

    // Assess
    expect(issues).toEqual([
      { path: '', condition: 'max', error: expect.stringContaining(`at most ${JOURNEY_LIMITS.definitionBytes} bytes`) },
    ]);
  });

  it('walks no graph over the step limit: a chain of 20 000 steps is one issue, answered at once', () => {
    // Prepare
    const steps = Array.from({ length: 20_000 }, (_, i) => wait(`s${i}`, i < 19_999 ? `s${i + 1}` : null));

    // Act
    const issues = found(journeyOf(steps));

    // Assess
    expect(issues).toEqual([
      ['', 'max'],
      ['steps', 'max'],
    ]);
  });

  it('is not fooled by inherited names', () => {
    // Prepare
    const definition = journeyOf([wait('a', 'constructor')]);

    // Act / Assess
    expect(found(definition)).toEqual([['steps.0.next', 'reference']]);
  });

  it('answers a value that is not an object with one issue', () => {
    expect(found('journey')).toEqual([['', 'type']]);
  });
});
