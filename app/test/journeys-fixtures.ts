import { type FakeAnswer, ok } from './fake-api.js';

export const AT = '2026-11-28T09:00:00.000Z';

/** The issue's cart journey: on cart_abandoned (keyed by cart_id), wait 4 h for its checkout, else remind. */
export const CART = {
  trigger: { event: 'cart_abandoned', key: 'cart_id', reentry: { mode: 'always' } },
  entry: 'wait_checkout',
  steps: [
    {
      id: 'wait_checkout',
      type: 'wait_for_event',
      event: 'checkout_completed',
      match_key: true,
      timeout_minutes: 240,
      on_event: null,
      on_timeout: 'remind',
    },
    { id: 'remind', type: 'send', template_id: 1, send_time: { mode: 0 }, next: null },
  ],
  settings: { category: 'marketing', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
};

/** A client journey as GET /client/journeys/{id} answers it. */
export const journeyOf = (overrides: Record<string, unknown> = {}) => ({
  id: 1000,
  name: 'Cart reminder',
  description: '',
  system: false,
  status: 'draft',
  enabled: null,
  live_version: null,
  draft: CART,
  draft_version: 3,
  issues: [],
  live: null,
  copied_from: null,
  created_at: AT,
  updated_at: AT,
  ...overrides,
});

/** A system journey (a workflow written as a journey), read-only. */
export const SYSTEM_WELCOME = journeyOf({
  id: 1,
  name: 'Welcome',
  system: true,
  status: 'live',
  enabled: true,
  live_version: null,
  draft: null,
  draft_version: 0,
  created_at: null,
  updated_at: null,
  live: {
    trigger: { event: 'signup', reentry: { mode: 'once' } },
    entry: 'wait',
    steps: [
      { id: 'wait', type: 'wait', minutes: 60, next: 'send' },
      { id: 'send', type: 'send', template_id: 1, send_time: { mode: 0 }, next: null },
    ],
    settings: { category: 'marketing', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
  },
});

const summaryOf = (journey: ReturnType<typeof journeyOf>) => ({
  id: journey.id,
  name: journey.name,
  description: journey.description,
  system: journey.system,
  status: journey.status,
  enabled: journey.enabled,
  live_version: journey.live_version,
  updated_at: journey.updated_at,
});

/** GET /client/journeys: the 8 system journeys and the given own ones. */
export function journeysList(own: ReturnType<typeof journeyOf>[], max = 20): FakeAnswer {
  const names = ['Welcome', 'Trial ending', 'Payment failed', 'Win back', 'Upgrade', 'Onboarding', 'Renewal', 'Survey'];
  const system = names.map((name, at) => ({ ...summaryOf(SYSTEM_WELCOME), id: at + 1, name }));
  const journeys = [...system, ...own.map(summaryOf)];
  return ok({ journeys }, { total: journeys.length, max_journeys: max });
}

export const created = (data: unknown): FakeAnswer => ({
  status: 201,
  body: { data, errors: [], message: 'Created', meta: { request_id: 'r' }, success: true },
});
