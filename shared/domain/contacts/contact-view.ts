import { healthScore } from '../tracking/health-score.js';
import type { ContactRecord } from './contact-store.js';

const TRANSIENT_WINDOW_MS = 30 * 86_400_000;

/** The contact's health (0–100) at `now`, from its delivery, engagement and recency (formula: health-score.ts). */
export function healthOf(c: ContactRecord, now: Date): number {
  return healthScore(
    {
      total_emails_sent: c.total_emails_sent ?? 0,
      total_emails_opened: c.total_emails_opened ?? 0,
      total_emails_clicked: c.total_emails_clicked ?? 0,
      hard_bounced: c.unsubscribe_reason === 'hard_bounce' || c.unsubscribe_reason === 'transient_bounces',
      complained: c.unsubscribe_reason === 'complaint',
      transient_bounces_30d: (c.transient_bounces ?? []).filter((t) => now.getTime() - Date.parse(t) <= TRANSIENT_WINDOW_MS).length,
      last_email_opened_at: c.last_email_opened_at ?? null,
      last_activity_at: c.last_activity_at ?? null,
    },
    now,
  );
}

/** The SPEC.md Contact as the API shows it at `now`; unset values are null, timestamps RFC 3339 UTC. */
export function toContactView(c: ContactRecord, now: Date) {
  const fields = Object.entries(c.custom_fields ?? {});
  return {
    id: c.id,
    client_id: c.client_id,
    client_contact_id: c.client_contact_id ?? null,
    external_id: c.external_id ?? null,
    email: c.email,
    first_name: c.first_name ?? null,
    last_name: c.last_name ?? null,
    company: c.company ?? null,
    phone: c.phone ?? null,
    timezone: c.timezone ?? null,
    is_subscribed: c.is_subscribed,
    unsubscribe_reason: c.unsubscribe_reason ?? null,
    unsubscribed_at: c.unsubscribed_at ?? null,
    last_purchase_at: c.last_purchase_at ?? null,
    signup_source: c.signup_source ?? null,
    source: c.source,
    custom_fields: fields.map(([, f]) => f.id).sort((a, b) => a - b),
    custom_field_values: Object.fromEntries(fields.sort(([a], [b]) => a.localeCompare(b)).map(([name, f]) => [name, f.value])),
    tags: c.tags ?? [],
    active_states: c.active_states ?? 0,
    active_workflow_count: c.active_workflow_count ?? 0,
    health_score: healthOf(c, now),
    total_emails_sent: c.total_emails_sent ?? 0,
    total_emails_opened: c.total_emails_opened ?? 0,
    total_emails_clicked: c.total_emails_clicked ?? 0,
    last_activity_at: c.last_activity_at ?? null,
    last_email_opened_at: c.last_email_opened_at ?? null,
    last_workflow_at: c.last_workflow_at ?? null,
    created_by: c.created_by,
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}
export type ContactView = ReturnType<typeof toContactView>;
