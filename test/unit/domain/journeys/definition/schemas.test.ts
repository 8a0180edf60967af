import { describe, expect, it } from 'vitest';
import { JOURNEY_LIMITS } from '../../../../../shared/public/journey-rules.js';
import {
  JourneyDefinitionSchema,
  JourneyIssueSchema,
} from '../../../../../shared/domain/journeys/definition/schemas.js';
import { SchemaCatalog, type JsonSchema } from '../../../../../shared/openapi/json-schema.js';
import { issuesToItems } from '../../../../../shared/validation/issue-items.js';
import type { OpenApiDocument } from '../../../../../shared/openapi/build-document.js';
import { documentAjv } from '../../../../integration/support/contract-check.js';
import { everyStepJourney } from './journey-fixtures.js';

// biome-ignore lint/suspicious/noExplicitAny: each mutation writes a shape the types refuse, on purpose
type Mutation = (j: any) => void;

const itemsOf = (input: unknown) => {
  const result = JourneyDefinitionSchema.safeParse(input, { reportInput: true });
  return result.success ? [] : issuesToItems(result.error.issues).map((i) => [i.key, i.condition]);
};

describe('JourneyDefinitionSchema', () => {
  it('takes a definition with every step type and reads it back unchanged', () => {
    // Prepare
    const definition = everyStepJourney();

    // Act
    const result = JourneyDefinitionSchema.safeParse(structuredClone(definition));

    // Assess
    expect(result.success).toBe(true);
    expect(result.data).toEqual(definition);
  });

  it.each<[string, Mutation, [string, string][]]>([
    ['an edge key left out', (j) => delete j.steps[1].next, [['steps.1.next', 'required']]],
    ['entry left out', (j) => delete j.entry, [['entry', 'required']]],
    ['a step id against the pattern', (j) => (j.steps[0].id = 'Welcome'), [['steps.0.id', 'format']]],
    ['a step id too long', (j) => (j.steps[0].id = 'a'.repeat(41)), [['steps.0.id', 'max']]],
    ['an unknown member', (j) => (j.steps[1].extra = 1), [['steps.1', 'format']]],
    ['an unknown step type', (j) => (j.steps[1].type = 'sleep'), [['steps.1.type', 'format']]],
    ['a wait of 0 minutes', (j) => (j.steps[1].minutes = 0), [['steps.1.minutes', 'min']]],
    ['a wait over a year', (j) => (j.steps[1].minutes = 525_601), [['steps.1.minutes', 'max']]],
    ['a timeout over 90 days', (j) => (j.steps[4].timeout_minutes = 129_601), [['steps.4.timeout_minutes', 'max']]],
    ['a time of 24:00', (j) => (j.steps[3].time = '24:00'), [['steps.3.time', 'format']]],
    ['weekday 8', (j) => (j.steps[3].weekdays = [8]), [['steps.3.weekdays.0', 'max']]],
    ['a repeated weekday', (j) => (j.steps[3].weekdays = [1, 1]), [['steps.3.weekdays', 'format']]],
    ['one arm', (j) => j.steps[6].arms.pop(), [['steps.6.arms', 'min']]],
    ['a percent of 0', (j) => (j.steps[6].arms[0].percent = 0), [['steps.6.arms.0.percent', 'min']]],
    ['a percent with 3 decimals', (j) => (j.steps[6].arms[0].percent = 33.333), [['steps.6.arms.0.percent', 'format']]],
    ['no branch', (j) => (j.steps[2].branches = []), [['steps.2.branches', 'min']]],
    [
      'a branch without conditions',
      (j) => (j.steps[2].branches[0].conditions = []),
      [['steps.2.branches.0.conditions', 'min']],
    ],
    [
      'eleven conditions',
      (j) => (j.trigger.conditions = Array(11).fill({ on: 'tag', op: 'has', tag: 'x' })),
      [['trigger.conditions', 'max']],
    ],
    [
      'a value op without a value',
      (j) => delete j.trigger.conditions[0].value,
      [['trigger.conditions.0.value', 'required']],
    ],
    [
      'exists with a value',
      (j) => (j.trigger.conditions[0] = { on: 'event', path: 'plan', op: 'exists', value: 1 }),
      [['trigger.conditions.0.value', 'format']],
    ],
    ['in with one value', (j) => (j.steps[4].conditions[0].value = 'pro'), [['steps.4.conditions.0.value', 'format']]],
    [
      'eq with a list',
      (j) => (j.trigger.conditions[0] = { on: 'event', path: 'plan', op: 'eq', value: ['a'] }),
      [['trigger.conditions.0.value', 'format']],
    ],
    ['a dotted bare path', (j) => (j.trigger.conditions[0].path = 'a.b'), [['trigger.conditions.0.path', 'format']]],
    [
      'a path 5 names deep',
      (j) => (j.trigger.conditions[0].path = 'metadata.a.b.c.d.e'),
      [['trigger.conditions.0.path', 'format']],
    ],
    [
      'an unknown condition',
      (j) => (j.trigger.conditions[0] = { on: 'weather' }),
      [['trigger.conditions.0.on', 'format']],
    ],
    ['a trigger event of *', (j) => (j.trigger.event = '*'), [['trigger.event', 'format']]],
    ['re-entry every 366 days', (j) => (j.trigger.reentry.days = 366), [['trigger.reentry.days', 'max']]],
    [
      'a minute without an hour',
      (j) => delete j.steps[7].send_time.preferred_hour,
      [['steps.7.send_time.preferred_hour', 'required']],
    ],
    ['a template id of 0', (j) => (j.steps[0].template_id = 0), [['steps.0.template_id', 'min']]],
    ['a priority over 100', (j) => (j.steps[7].priority_score = 101), [['steps.7.priority_score', 'max']]],
    [
      'eleven exit events',
      (j) => (j.settings.exit_events = 'abcdefghijk'.split('')),
      [['settings.exit_events', 'max']],
    ],
    ['a repeated exit event', (j) => (j.settings.exit_events = ['a', 'a']), [['settings.exit_events', 'format']]],
    [
      'a conversion window of 91 days',
      (j) => (j.settings.conversion_window_days = 91),
      [['settings.conversion_window_days', 'max']],
    ],
    ['an unknown category', (j) => (j.settings.category = 'news'), [['settings.category', 'enum']]],
    ['a blank name', (j) => (j.steps[0].name = '  '), [['steps.0.name', 'format']]],
    ['a time zone alias', (j) => (j.steps[5].set = { timezone: 'EST' }), [['steps.5.set.timezone', 'format']]],
    [
      'fifty-one steps',
      (j) => (j.steps = Array.from({ length: 51 }, (_, i) => ({ id: `s${i}`, type: 'exit' }))),
      [['steps', 'max']],
    ],
  ])('refuses %s, at its path', (_name, mutate, expected) => {
    // Prepare
    const definition = everyStepJourney();
    mutate(definition);

    // Act
    const items = itemsOf(definition);

    // Assess
    expect(items).toEqual(expected);
  });

  it('takes an exit event of * and a null edge', () => {
    // Prepare
    const definition = everyStepJourney();
    definition.settings.exit_events = ['*'];

    // Act / Assess
    expect(itemsOf(definition)).toEqual([]);
  });
});

describe('the document of a journey', () => {
  const catalog = new SchemaCatalog();
  const input = catalog.convert(JourneyDefinitionSchema, 'input');
  const output = catalog.convert(JourneyDefinitionSchema, 'output');
  catalog.convert(JourneyIssueSchema, 'output');
  const components = catalog.schemas();
  const text = JSON.stringify(components);

  it('is one named component, the same for requests and answers', () => {
    expect(input).toEqual({ $ref: '#/components/schemas/JourneyDefinition' });
    expect(output).toEqual(input);
    expect(Object.keys(components)).toEqual(
      expect.arrayContaining([
        'JourneyDefinition',
        'JourneyTrigger',
        'JourneyReentry',
        'JourneySettings',
        'JourneyStep',
        'JourneySendStep',
        'JourneyWaitStep',
        'JourneyWaitUntilStep',
        'JourneyWaitForEventStep',
        'JourneyBranchStep',
        'JourneySplitStep',
        'JourneyUpdateContactStep',
        'JourneyExitStep',
        'JourneyCondition',
        'JourneyIssue',
      ]),
    );
  });

  const property = (component: string, ...path: string[]): JsonSchema =>
    path.reduce<JsonSchema>(
      (schema, key) => (schema['properties'] as Record<string, JsonSchema>)[key] ?? (schema[key] as JsonSchema),
      components[component]!,
    );

  it.each<[string, () => unknown, unknown]>([
    ['steps', () => property('JourneyDefinition', 'steps')['maxItems'], JOURNEY_LIMITS.steps],
    ['branches', () => property('JourneyBranchStep', 'branches')['maxItems'], JOURNEY_LIMITS.branches],
    ['arms (min)', () => property('JourneySplitStep', 'arms')['minItems'], JOURNEY_LIMITS.armsMin],
    ['arms (max)', () => property('JourneySplitStep', 'arms')['maxItems'], JOURNEY_LIMITS.armsMax],
    ['conditions', () => property('JourneyTrigger', 'conditions')['maxItems'], JOURNEY_LIMITS.conditions],
    ['a wait', () => property('JourneyWaitStep', 'minutes')['maximum'], JOURNEY_LIMITS.waitMinutes.max],
    [
      'a timeout',
      () => property('JourneyWaitForEventStep', 'timeout_minutes')['maximum'],
      JOURNEY_LIMITS.timeoutMinutes.max,
    ],
    [
      're-entry days',
      () => JSON.stringify(components['JourneyReentry']).includes(`"maximum":${JOURNEY_LIMITS.reentryDays.max}`),
      true,
    ],
    ['a step id', () => property('JourneySendStep', 'id')['maxLength'], JOURNEY_LIMITS.stepIdChars],
    ['a name', () => property('JourneySendStep', 'name')['maxLength'], JOURNEY_LIMITS.nameChars],
  ])('states the bound of %s', (_name, read, bound) => {
    expect(read()).toBe(bound);
  });

  it.each([
    ['the size', `${JOURNEY_LIMITS.definitionBytes} bytes`],
    ['unique ids', '`unique`'],
    ['references', '`reference`'],
    ['the graph', '`graph`'],
    ['the trigger key', '`required`'],
    ['category rules', '`read_only`'],
    ['live journeys per trigger', `At most ${JOURNEY_LIMITS.liveJourneysPerTrigger} live or paused journeys`],
    ['runs per contact', `at most ${JOURNEY_LIMITS.runsPerContact} runs`],
    ['the key value', `${JOURNEY_LIMITS.keyValueChars} characters`],
  ])('states the rule of %s', (_name, words) => {
    expect(text).toContain(words);
  });

  it('bounds every string it takes', () => {
    const unbounded: string[] = [];
    const walk = (schema: unknown, at: string): void => {
      if (schema === null || typeof schema !== 'object') return;
      const s = schema as JsonSchema;
      if (s['type'] === 'string' && s['maxLength'] === undefined && s['enum'] === undefined && s['const'] === undefined)
        unbounded.push(at);
      for (const [key, child] of Object.entries(s)) walk(child, `${at}/${key}`);
    };
    for (const [name, schema] of Object.entries(components)) if (name !== 'JourneyIssue') walk(schema, name);
    expect(unbounded).toEqual([]);
  });

  it('compiles as strict JSON Schema, and says what the validator says about values', () => {
    // Prepare
    const { compile } = documentAjv({ components: { schemas: components } } as unknown as OpenApiDocument);
    const valid = compile({ $ref: '#/components/schemas/JourneyDefinition' });
    const withTrigger = (condition: object) => {
      const definition = everyStepJourney() as unknown as { trigger: { conditions: object[] } };
      definition.trigger.conditions = [condition];
      return definition;
    };

    // Act / Assess
    expect(valid(everyStepJourney())).toBe(true);
    expect(valid(withTrigger({ on: 'event', path: 'plan', op: 'eq' }))).toBe(false);
    expect(valid(withTrigger({ on: 'event', path: 'plan', op: 'exists', value: 1 }))).toBe(false);
    expect(valid(withTrigger({ on: 'event', path: 'plan', op: 'in', value: 'x' }))).toBe(false);
    expect(valid(withTrigger({ on: 'event', path: 'plan', op: 'eq', value: ['x'] }))).toBe(false);
    expect(valid(withTrigger({ on: 'event', path: 'plan', op: 'in', value: ['x'] }))).toBe(true);
    expect(valid(withTrigger({ on: 'event', path: 'plan', op: 'not_exists' }))).toBe(true);
  });
});
