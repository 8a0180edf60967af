import { counts } from './stats-fixtures.js';

/** GET /client/workflows' welcome workflow (id 1) as the API answers it, with overrides. */
export const workflowOf = (overrides: Record<string, unknown> = {}, customization: Record<string, unknown> = {}) => ({
  id: 1,
  key: 'welcome',
  name: 'Welcome',
  description: 'Greets a new user right after sign-up and points to the first step.',
  trigger: { event: 'signup' },
  critical: false,
  category: 'marketing',
  enabled: true,
  defaults: {
    template_id: 1,
    delay_minutes: 0,
    priority_score: 90,
    send_time_mode: 0,
    send_slot: null,
    exit_events: [],
    conversion_window_days: 7,
  },
  customization: {
    workflow_id: 1,
    template_id: 1,
    delay_minutes: 0,
    priority_score: 90,
    preferred_send_hour: null,
    preferred_send_minute: null,
    send_time_mode: 0,
    exit_events: [],
    conversion_window_days: 7,
    topic_id: null,
    overrides: {
      template_id: null,
      delay_minutes: null,
      priority_score: null,
      preferred_send_hour: null,
      preferred_send_minute: null,
      send_time_mode: null,
      conversion_window_days: null,
      topic_id: null,
      exit_events: null,
    },
    updated_at: null,
    ...customization,
  },
  template: { id: 1, name: 'Welcome (system)', type: 1 },
  clone_template_id: null,
  ...overrides,
});

export const PAYMENT_FAILED = workflowOf(
  {
    id: 5,
    key: 'payment_failed',
    name: 'Payment failed',
    description: 'Asks to update the card.',
    trigger: { event: 'payment_failed' },
    category: 'transactional',
    enabled: false,
    critical: true,
    defaults: {
      template_id: 5,
      delay_minutes: 60,
      priority_score: 100,
      send_time_mode: 0,
      send_slot: null,
      exit_events: ['payment_succeeded'],
      conversion_window_days: 7,
    },
    template: { id: 5, name: 'Payment failed (system)', type: 1 },
  },
  { workflow_id: 5, template_id: 5, delay_minutes: 60, exit_events: ['payment_succeeded'] },
);

/** GET /client/workflows/1/stats: two days, a funnel, reasons. */
export const STATS = {
  from: '2026-10-28',
  to: '2026-11-26',
  granularity: 'day',
  workflow_id: 1,
  time_zone: 'UTC',
  series: [
    {
      period: '2026-11-25',
      counts: counts({ executions: 3, sent: 2, delivered: 2, opened: 1, skipped: 1 }),
      events: {},
    },
    {
      period: '2026-11-26',
      counts: counts({ executions: 1, sent: 1, delivered: 1, clicked: 1, converted: 1, exited: 1 }),
      events: {},
    },
  ],
  totals: counts({ executions: 4, sent: 3, delivered: 3, opened: 1, clicked: 1, converted: 1, exited: 1, skipped: 1 }),
  rates: {
    delivery_rate: 1,
    open_rate: 1 / 3,
    click_rate: 1 / 3,
    click_to_open_rate: 1,
    bounce_rate: 0,
    complaint_rate: 0,
    unsubscribe_rate: 0,
    bot_open_share: 0,
    conversion_rate: 1 / 3,
  },
  skipped_reasons: { unsubscribed: 1 },
  failed_reasons: {},
  events: {},
  funnel: [
    { step: 'triggered', count: 4 },
    { step: 'sent', count: 3 },
    { step: 'delivered', count: 3 },
    { step: 'opened', count: 1 },
    { step: 'clicked', count: 1 },
  ],
};

const NONE = {
  template_id: null,
  delay_minutes: null,
  priority_score: null,
  preferred_send_hour: null,
  preferred_send_minute: null,
  send_time_mode: 0,
  conversion_window_days: null,
  topic_id: null,
  exit_events: null,
};

/** An audit entry: a session user changed the delay and the exit events. */
export const AUDIT_ENTRY = {
  id: 'a1',
  workflow_id: 1,
  key_id: null,
  auth_method: 'session',
  user_id: 1,
  request_id: 'r',
  at: '2026-11-26T09:30:00.000Z',
  before: NONE,
  after: { ...NONE, delay_minutes: 30, exit_events: ['upgrade'] },
};

export const TEMPLATES = [
  { id: 1, user_id: 0, name: 'Welcome (system)', type: 1, deleted_at: null },
  { id: 1002, user_id: 1, name: 'My welcome', type: 2, deleted_at: null },
];
