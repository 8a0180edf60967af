import { describe, expect, it } from 'vitest';
import { WORKFLOWS, type WorkflowDefinition } from '../../../../../shared/domain/workflows/catalog.js';
import type { CustomizationRecord } from '../../../../../shared/domain/workflows/customization.js';
import { systemJourneyOf } from '../../../../../shared/domain/journeys/definition/system-journeys.js';
import { validateJourney } from '../../../../../shared/domain/journeys/definition/validate-journey.js';
import type { JourneyDefinition } from '../../../../../shared/domain/journeys/definition/types.js';

const refs = {
  templateIds: new Set([...WORKFLOWS.map((w) => w.default_template_id), 1001]),
  topicIds: new Set([4]),
  segmentIds: new Set<number>(),
};

/** Every override set, as a client may set them (a topic only on marketing workflows, as the customization allows). */
const customized = (w: WorkflowDefinition): CustomizationRecord => ({
  workflow_id: w.id,
  version: 3,
  template_id: 1001,
  delay_minutes: 90,
  priority_score: 12,
  preferred_send_hour: 8,
  preferred_send_minute: 15,
  send_time_mode: 2,
  exit_events: ['churned', '*'],
  conversion_window_days: 14,
  ...(w.category === 'marketing' ? { topic_id: 4 } : {}),
});

const sendOf = (j: JourneyDefinition) => j.steps.find((s) => s.id === 'send');

describe('systemJourneyOf', () => {
  it.each(WORKFLOWS.map((w) => [w.id, w.key, w] as const))(
    'workflow %i (%s) without a customization: the catalog defaults, a valid journey',
    (_id, _key, workflow) => {
      // Act
      const journey = systemJourneyOf(workflow, undefined);

      // Assess
      expect(validateJourney(journey, refs).issues).toEqual([]);
      expect(journey.trigger).toEqual({
        event: workflow.trigger.event,
        ...(workflow.trigger.or_when ? { or_when: [{ on: 'event', path: 'upgrade', op: 'eq', value: true }] } : {}),
        reentry: { mode: 'always' },
      });
      const delay = workflow.default_delay_minutes;
      expect(journey.entry).toBe(delay > 0 ? 'delay' : 'send');
      expect(journey.steps.map((s) => s.id)).toEqual(delay > 0 ? ['delay', 'send'] : ['send']);
      if (delay > 0) expect(journey.steps[0]).toEqual({ id: 'delay', type: 'wait', minutes: delay, next: 'send' });
      expect(sendOf(journey)).toEqual({
        id: 'send',
        name: workflow.name,
        type: 'send',
        template_id: workflow.default_template_id,
        priority_score: workflow.default_priority_score,
        send_time: {
          mode: workflow.default_send_time_mode,
          ...(workflow.default_send_slot ? { slot: workflow.default_send_slot } : {}),
        },
        next: null,
      });
      expect(journey.settings).toEqual({
        category: workflow.category,
        topic_id: null,
        critical: workflow.critical,
        exit_events: [...workflow.default_exit_events],
        conversion_window_days: 7,
      });
    },
  );

  it.each(WORKFLOWS.map((w) => [w.id, w.key, w] as const))(
    'workflow %i (%s) with every override: the values in effect, a valid journey',
    (_id, _key, workflow) => {
      // Prepare
      const customization = customized(workflow);

      // Act
      const journey = systemJourneyOf(workflow, customization);

      // Assess
      expect(validateJourney(journey, refs).issues).toEqual([]);
      expect(journey.entry).toBe('delay');
      expect(journey.steps[0]).toEqual({ id: 'delay', type: 'wait', minutes: 90, next: 'send' });
      expect(sendOf(journey)).toMatchObject({
        template_id: 1001,
        priority_score: 12,
        send_time: { mode: 2, preferred_hour: 8, preferred_minute: 15 },
        next: null,
      });
      expect(journey.settings).toEqual({
        category: workflow.category,
        topic_id: workflow.category === 'marketing' ? 4 : null,
        critical: workflow.critical,
        exit_events: ['churned', '*'],
        conversion_window_days: 14,
      });
    },
  );

  it.each<[string, Partial<CustomizationRecord>, number, object]>([
    ['a delay of 0 removes the wait of onboarding tips', { delay_minutes: 0 }, 2, { mode: 1, slot: 'morning' }],
    [
      'an hour alone sets mode 1 at :00',
      { preferred_send_hour: 7 },
      1,
      { mode: 1, preferred_hour: 7, preferred_minute: 0 },
    ],
    ['mode 0 chosen over the slot', { send_time_mode: 0 }, 2, { mode: 0, slot: 'morning' }],
  ])('%s', (_name, overrides, workflowId, sendTime) => {
    // Prepare
    const workflow = WORKFLOWS.find((w) => w.id === workflowId)!;

    // Act
    const journey = systemJourneyOf(workflow, { workflow_id: workflowId, ...overrides });

    // Assess
    expect(sendOf(journey)!).toMatchObject({ send_time: sendTime });
    expect(journey.steps.some((s) => s.type === 'wait')).toBe(
      (overrides.delay_minutes ?? workflow.default_delay_minutes) > 0,
    );
    expect(validateJourney(journey, refs).issues).toEqual([]);
  });

  it('drops a topic an old customization of a transactional workflow still holds', () => {
    // Prepare
    const paymentFailed = WORKFLOWS.find((w) => w.category === 'transactional')!;

    // Act
    const journey = systemJourneyOf(paymentFailed, { workflow_id: paymentFailed.id, topic_id: 4 });

    // Assess
    expect(journey.settings.topic_id).toBeNull();
  });
});
