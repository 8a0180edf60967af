import type { JourneyDefinition, JourneyStep } from '../../../../../shared/domain/journeys/definition/types.js';

/** A valid definition using every step type once: welcome → wait → branch (engagement) → wait_for_event … */
export function everyStepJourney(): JourneyDefinition {
  return {
    trigger: {
      event: 'order_placed',
      conditions: [{ on: 'event', path: 'amount', op: 'gte', value: 10 }],
      key: 'metadata.order_id',
      reentry: { mode: 'every_days', days: 30 },
    },
    entry: 'welcome',
    steps: [
      { id: 'welcome', type: 'send', template_id: 1, send_time: { mode: 0 }, next: 'pause' },
      { id: 'pause', type: 'wait', minutes: 60, next: 'opened' },
      {
        id: 'opened',
        type: 'branch',
        branches: [
          {
            name: 'Opened',
            conditions: [{ on: 'engagement', send_step: 'welcome', op: 'human_opened' }],
            next: 'await_pay',
          },
        ],
        otherwise: 'morning',
      },
      { id: 'morning', type: 'wait_until', time: '09:30', weekdays: [1, 2, 3, 4, 5], next: 'await_pay' },
      {
        id: 'await_pay',
        type: 'wait_for_event',
        event: 'payment_succeeded',
        conditions: [{ on: 'event', path: 'plan', op: 'in', value: ['pro', 'team'] }],
        match_key: true,
        timeout_minutes: 1440,
        on_event: 'tag_buyer',
        on_timeout: 'ab',
      },
      { id: 'tag_buyer', type: 'update_contact', add_tags: ['buyer'], set: { company: 'Acme' }, next: null },
      {
        id: 'ab',
        type: 'split',
        arms: [
          { name: 'A', percent: 50, next: 'reminder' },
          { name: 'B', percent: 50, next: 'done' },
        ],
      },
      {
        id: 'reminder',
        type: 'send',
        template_id: 1001,
        priority_score: 70,
        send_time: { mode: 1, preferred_hour: 10, preferred_minute: 15 },
        next: null,
      },
      { id: 'done', type: 'exit' },
    ],
    settings: {
      category: 'marketing',
      topic_id: 3,
      critical: false,
      exit_events: ['refund'],
      conversion_window_days: 7,
    },
  };
}

/** A definition of the given steps, entry the first, otherwise as everyStepJourney's. */
export function journeyOf(steps: JourneyStep[], patch: Partial<JourneyDefinition> = {}): JourneyDefinition {
  return { ...everyStepJourney(), entry: steps[0]?.id ?? 'none', steps, ...patch };
}
