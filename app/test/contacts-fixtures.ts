import type { SignedIn } from '../src/session.js';
import { ME } from './fake-api.js';

/** A contact as GET /client/contacts/{id} answers it. */
export const contactOf = (overrides: Record<string, unknown> = {}) => ({
  id: 42,
  client_id: 1,
  client_contact_id: 'u-42',
  external_id: null,
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  company: 'Analytical Engines',
  phone: null,
  timezone: 'Europe/London',
  is_subscribed: true,
  topic_subscriptions: [{ topic_id: 3, is_subscribed: true }],
  unsubscribe_reason: null,
  unsubscribed_at: null,
  last_purchase_at: null,
  signup_source: 'landing',
  source: 1,
  custom_fields: [7],
  custom_field_values: { plan_tier: 'pro' },
  tags: ['beta', 'vip'],
  active_states: 0,
  active_workflow_count: 1,
  health_score: 72,
  total_emails_sent: 3,
  total_emails_opened: 2,
  total_emails_clicked: 1,
  last_activity_at: '2026-11-26T09:00:00.000Z',
  last_email_opened_at: null,
  last_workflow_at: null,
  created_by: 0,
  created_at: '2026-11-20T09:00:00.000Z',
  updated_at: '2026-11-26T09:00:00.000Z',
  ...overrides,
});

export const TOPIC = {
  id: 3,
  name: 'Product news',
  description: '',
  default_subscribed: true,
  contacts_left: 0,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};

export const logOf = (status: number, status_text: string, overrides: Record<string, unknown> = {}) => ({
  id: `log-${status}-${String(overrides['is_bot'] ?? false)}`,
  created_at: '2026-11-26T09:00:01.000Z',
  status,
  status_text,
  provider_message_id: null,
  url: null,
  ip_address: null,
  user_agent: null,
  is_bot: false,
  bot_reason: null,
  detail: null,
  ...overrides,
});

export const SENT_ID = '0b6f6a3e-8d3c-4a55-9d1e-5d0c2f6a7b10';

/** The signed-in user, with another role. */
export const as = (role: 'owner' | 'member' | 'viewer'): SignedIn => ({
  client: { ...ME.client, status: 'active' },
  user: { ...ME.user, updated_at: ME.user.created_at, role: { owner: 1, member: 3, viewer: 4 }[role], role_name: role },
});
