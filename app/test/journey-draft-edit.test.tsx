import { describe, expect, it } from 'vitest';
import type { JourneyDefinition } from '../../shared/domain/journeys/definition/types.js';
import { STEP_ID_PATTERN } from '../../shared/public/journey-rules.js';
import {
  addCondition,
  addStepAfter,
  changeCondition,
  freshStepId,
  removeCondition,
  removeStep,
  renameStep,
  sendStepsOf,
  STEP_KINDS,
  setSettings,
  setStep,
  setTrigger,
} from '../src/pages/journeys/journey-draft-edit.js';

/** trigger → wait_checkout (event: thanks / timeout: remind) ; remind → branch (opened: thanks, else end) */
const definition = (): JourneyDefinition => ({
  trigger: { event: 'cart_abandoned', key: 'cart_id', reentry: { mode: 'always' } },
  entry: 'wait_checkout',
  steps: [
    {
      id: 'wait_checkout',
      type: 'wait_for_event',
      event: 'checkout_completed',
      match_key: true,
      timeout_minutes: 240,
      on_event: 'thanks',
      on_timeout: 'remind',
    },
    { id: 'remind', type: 'send', template_id: 1, send_time: { mode: 0 }, next: 'check' },
    {
      id: 'check',
      type: 'branch',
      branches: [
        { name: 'Opened', conditions: [{ on: 'engagement', send_step: 'remind', op: 'human_opened' }], next: 'thanks' },
      ],
      otherwise: null,
    },
    { id: 'thanks', type: 'send', template_id: 2, send_time: { mode: 0 }, next: null },
  ],
  settings: { category: 'marketing', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
});

describe('editing a journey draft', () => {
  it('adds a step on an edge: the edge leads to it and it continues where the edge led', () => {
    // Prepare
    const before = definition();
    const copy = structuredClone(before);

    // Act
    const { definition: after, id } = addStepAfter(before, 'wait_checkout', 'on_timeout', 'wait');

    // Assert
    expect(id).toBe('wait_1');
    expect(after.steps.map((step) => step.id)).toEqual(['wait_checkout', 'wait_1', 'remind', 'check', 'thanks']);
    expect(after.steps[0]).toMatchObject({ on_event: 'thanks', on_timeout: 'wait_1' });
    expect(after.steps[1]).toEqual({ id: 'wait_1', type: 'wait', minutes: 1440, next: 'remind' });
    expect(before).toEqual(copy);
  });

  it('adds a step on a branch case, a split arm and before the first step (the entry moves)', () => {
    // Act
    const onCase = addStepAfter(definition(), 'check', 'branches.0.next', 'send', { templateId: 7 });
    const onOtherwise = addStepAfter(definition(), 'check', 'otherwise', 'exit');
    const first = addStepAfter(definition(), 'trigger', 'entry', 'update_contact');

    // Assert
    const check = onCase.definition.steps.find((step) => step.id === 'check');
    expect(check).toMatchObject({ branches: [{ next: 'send_1' }], otherwise: null });
    expect(onCase.definition.steps.find((step) => step.id === 'send_1')).toEqual({
      id: 'send_1',
      type: 'send',
      template_id: 7,
      send_time: { mode: 0 },
      next: 'thanks',
    });
    expect(onOtherwise.definition.steps.find((step) => step.id === 'check')).toMatchObject({ otherwise: 'exit_1' });
    expect(onOtherwise.definition.steps.find((step) => step.id === 'exit_1')).toEqual({ id: 'exit_1', type: 'exit' });
    expect(first.definition.entry).toBe('update_contact_1');
    expect(first.definition.steps[0]).toEqual({
      id: 'update_contact_1',
      type: 'update_contact',
      add_tags: [],
      next: 'wait_checkout',
    });
  });

  it('gives each kind sensible defaults continuing to the old target, with a fresh id of the pattern', () => {
    for (const kind of STEP_KINDS) {
      // Act
      const { definition: after, id } = addStepAfter(definition(), 'remind', 'next', kind);

      // Assert
      const added = after.steps.find((step) => step.id === id);
      expect(id, kind).toMatch(STEP_ID_PATTERN);
      expect(added?.type).toBe(kind);
      const nexts = JSON.stringify(added);
      if (kind !== 'exit') expect(nexts, kind).toContain('"check"');
      expect(after.steps.find((step) => step.id === 'remind')).toMatchObject({ next: id });
    }
    const split = addStepAfter(definition(), 'remind', 'next', 'split').definition.steps[2];
    expect(split).toMatchObject({
      arms: [
        { percent: 50, next: 'check' },
        { percent: 50, next: 'check' },
      ],
    });
  });

  it('draws an id no step has, skipping those taken', () => {
    // Prepare
    const withWait1 = addStepAfter(definition(), 'remind', 'next', 'wait').definition;

    // Act / Assert
    expect(freshStepId(withWait1, 'wait')).toBe('wait_2');
    expect(addStepAfter(withWait1, 'remind', 'next', 'wait').id).toBe('wait_2');
  });

  it('leaves the definition as it is for an unknown step or edge', () => {
    const before = definition();
    expect(addStepAfter(before, 'nope', 'next', 'wait')).toEqual({ definition: before, id: null });
    expect(addStepAfter(before, 'remind', 'on_timeout', 'wait')).toEqual({ definition: before, id: null });
    expect(addStepAfter(before, 'check', 'branches.4.next', 'wait')).toEqual({ definition: before, id: null });
  });

  it('removes a step: the edges into it go to its single next, and the entry follows', () => {
    // Act
    const withoutRemind = removeStep(definition(), 'remind');
    const withoutEntry = removeStep(definition(), 'wait_checkout');

    // Assert
    expect(withoutRemind.steps.map((step) => step.id)).toEqual(['wait_checkout', 'check', 'thanks']);
    expect(withoutRemind.steps[0]).toMatchObject({ on_event: 'thanks', on_timeout: 'check' });
    // The wait had two ways on (thanks, remind): its runs' entry goes to the first step left.
    expect(withoutEntry.entry).toBe('remind');
  });

  it('removes a step with several ways on: the edges into it end the run', () => {
    // Act
    const after = removeStep(definition(), 'check');

    // Assert
    expect(after.steps.find((step) => step.id === 'remind')).toMatchObject({ next: null });
  });

  it('removes an entry with a single next: the entry moves to it; never the last step', () => {
    // Prepare
    const single = { ...definition(), entry: 'remind' };

    // Act / Assert
    expect(removeStep(single, 'remind').entry).toBe('check');
    const one = { ...definition(), entry: 'thanks', steps: [definition().steps[3] as never] };
    expect(removeStep(one, 'thanks')).toBe(one);
  });

  it('renames a step: the entry, every edge and every engagement condition follow', () => {
    // Act
    const after = renameStep(definition(), 'remind', 'reminder');
    const entry = renameStep(definition(), 'wait_checkout', 'wait_for_checkout');

    // Assert
    expect(after.steps.map((step) => step.id)).toEqual(['wait_checkout', 'reminder', 'check', 'thanks']);
    expect(after.steps[0]).toMatchObject({ on_timeout: 'reminder' });
    expect(after.steps[2]).toMatchObject({
      branches: [{ conditions: [{ on: 'engagement', send_step: 'reminder', op: 'human_opened' }] }],
    });
    expect(entry.entry).toBe('wait_for_checkout');
  });

  it('refuses a rename onto another step’s id or off the pattern (never merging two steps)', () => {
    const before = definition();
    expect(renameStep(before, 'remind', 'thanks')).toBe(before);
    expect(renameStep(before, 'remind', 'Remind')).toBe(before);
    expect(renameStep(before, 'remind', '')).toBe(before);
    expect(renameStep(before, 'nope', 'other')).toBe(before);
  });

  it('sets a step, the trigger and the settings without touching the rest', () => {
    // Prepare
    const before = definition();

    // Act
    const step = setStep(before, { id: 'thanks', type: 'exit' });
    const trigger = setTrigger(before, { event: 'signup', reentry: { mode: 'once' } });
    const settings = setSettings(before, { ...before.settings, conversion_window_days: 30 });

    // Assert
    expect(step.steps[3]).toEqual({ id: 'thanks', type: 'exit' });
    expect(step.steps.slice(0, 3)).toEqual(before.steps.slice(0, 3));
    expect(trigger.trigger).toEqual({ event: 'signup', reentry: { mode: 'once' } });
    expect(settings.settings.conversion_window_days).toBe(30);
    expect(setStep(before, { id: 'ghost', type: 'exit' })).toBe(before);
  });

  it('offers an engagement condition the send steps a run passes before the reader', () => {
    // Prepare: thanks (a send) comes after check; remind before it.
    const before = definition();

    // Act / Assert
    expect(sendStepsOf(before, 'check')).toEqual(['remind']);
    expect(sendStepsOf(before, 'thanks')).toEqual(['remind']);
    expect(sendStepsOf(before, 'wait_checkout')).toEqual([]);
    const orphan = { ...before, steps: [...before.steps, { id: 'lost', type: 'exit' as const }] };
    expect(sendStepsOf(orphan, 'lost')).toEqual(['remind', 'thanks']);
    expect(sendStepsOf(before)).toEqual(['remind', 'thanks']);
  });

  it('adds, changes and removes a condition of a list', () => {
    // Act
    const one = addCondition(undefined, { on: 'tag', op: 'has', tag: 'vip' });
    const two = addCondition(one, { on: 'event', path: 'plan', op: 'eq', value: 'pro' });
    const changed = changeCondition(two, 0, { on: 'tag', op: 'has_not', tag: 'vip' });
    const removed = removeCondition(changed, 0);

    // Assert
    expect(two).toHaveLength(2);
    expect(changed[0]).toEqual({ on: 'tag', op: 'has_not', tag: 'vip' });
    expect(removed).toEqual([{ on: 'event', path: 'plan', op: 'eq', value: 'pro' }]);
    expect(one).toEqual([{ on: 'tag', op: 'has', tag: 'vip' }]);
  });
});
