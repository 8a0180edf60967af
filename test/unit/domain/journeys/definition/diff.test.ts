import { describe, expect, it } from 'vitest';
import {
  diffDefinitions,
  JourneyDiffSchema,
  type JourneyDiff,
} from '../../../../../shared/domain/journeys/definition/diff.js';
import type { JourneyDefinition } from '../../../../../shared/domain/journeys/definition/types.js';
import { everyStepJourney } from './journey-fixtures.js';

const none: JourneyDiff = {
  trigger_changed: false,
  settings_changed: false,
  entry_changed: false,
  added: [],
  removed: [],
  changed: [],
};

describe('diffDefinitions', () => {
  it.each<[string, (j: JourneyDefinition) => void, Partial<JourneyDiff>]>([
    ['nothing', () => {}, {}],
    ['a trigger condition', (j) => (j.trigger.reentry = { mode: 'once' }), { trigger_changed: true }],
    ['a setting', (j) => (j.settings.exit_events = ['refund', 'churned']), { settings_changed: true }],
    ['the entry', (j) => (j.entry = 'pause'), { entry_changed: true }],
    ['a step added', (j) => j.steps.push({ id: 'later', type: 'exit' }), { added: ['later'] }],
    ['a step removed', (j) => j.steps.splice(8, 1), { removed: ['done'] }],
    [
      'a step renamed is one removed and one added',
      (j) => (j.steps[8] = { id: 'finish', type: 'exit' }),
      { removed: ['done'], added: ['finish'] },
    ],
    [
      'fields of a step, deep',
      (j) => {
        const send = j.steps[7]!;
        if (send.type === 'send') {
          send.send_time = { ...send.send_time, preferred_minute: 45 };
          send.name = 'Reminder';
        }
      },
      { changed: [{ step_id: 'reminder', fields: ['name', 'send_time'] }] },
    ],
    [
      'a step changing type lists every member that differs',
      (j) => (j.steps[1] = { id: 'pause', type: 'wait_until', time: '08:00', next: 'opened' }),
      { changed: [{ step_id: 'pause', fields: ['minutes', 'time', 'type'] }] },
    ],
  ])('sees %s', (_name, change, expected) => {
    // Prepare
    const from = everyStepJourney();
    const to = everyStepJourney();
    change(to);

    // Act
    const diff = diffDefinitions(from, to);

    // Assess
    expect(diff).toEqual({ ...none, ...expected });
  });

  it('ignores the order of steps and of members', () => {
    // Prepare
    const from = everyStepJourney();
    const to = everyStepJourney();
    to.steps.reverse();
    to.steps[0] = Object.fromEntries(Object.entries(to.steps[0]!).reverse()) as JourneyDefinition['steps'][number];

    // Act / Assess
    expect(diffDefinitions(from, to)).toEqual(none);
  });

  it('answers in the shape of its schema', () => {
    // Prepare
    const to = everyStepJourney();
    to.steps.pop();

    // Act / Assess
    expect(JourneyDiffSchema.safeParse(diffDefinitions(everyStepJourney(), to)).success).toBe(true);
  });
});
