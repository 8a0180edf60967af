import * as z from '../../validation/zod.js';
import { emailFormat } from '../../validation/email-address.js';
import { healthScore } from '../tracking/health-score.js';
import { UtcTimestamp } from '../time/utc-timestamp.js';
import type { ContactRecord } from './contact-store.js';
import { TopicSubscriptions, topicSubscriptionsOf } from '../topics/contact-topics.js';
import type { TopicRecord } from '../topics/topic-store.js';
import { CONTACT_SOURCES } from './schemas.js';

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
      transient_bounces_30d: (c.transient_bounces ?? []).filter(
        (t) => now.getTime() - Date.parse(t) <= TRANSIENT_WINDOW_MS,
      ).length,
      last_email_opened_at: c.last_email_opened_at ?? null,
      last_activity_at: c.last_activity_at ?? null,
    },
    now,
  );
}

const count = z.int().check(z.gte(0));
const text = z.nullable(z.string());

/** SPEC.md's Contact as every contact route answers it (OpenAPI `Contact`). */
export const ContactView = z
  .object({
    id: z.int().check(z.gte(1)),
    client_id: z.int().check(z.gte(1)),
    client_contact_id: text.check(
      z.meta({ description: "The caller's own identifier (events name the contact by it as `uid`)" }),
    ),
    external_id: text,
    email: emailFormat().check(
      z.meta({ description: 'Unique per client, lower-cased', examples: ['ada@example.com'] }),
    ),
    first_name: text,
    last_name: text,
    company: text,
    phone: text,
    timezone: text.check(z.meta({ description: 'IANA time zone name', examples: ['Europe/Paris'] })),
    is_subscribed: z.boolean(),
    topic_subscriptions: TopicSubscriptions,
    unsubscribe_reason: text,
    unsubscribed_at: z.nullable(UtcTimestamp),
    last_purchase_at: z.nullable(UtcTimestamp),
    signup_source: text,
    source: z
      .int()
      .check(
        z.gte(0),
        z.lte(CONTACT_SOURCES.length - 1),
        z.meta({ description: CONTACT_SOURCES.map((name, i) => `${i} ${name}`).join(', ') }),
      ),
    custom_fields: z
      .array(z.int())
      .check(z.meta({ description: 'Ids of the custom fields the contact has, ascending' })),
    custom_field_values: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
      .check(z.meta({ description: 'Extra: the custom field values by name' })),
    tags: z.array(z.string()),
    active_states: count,
    active_workflow_count: count,
    health_score: z.int().check(z.gte(0), z.lte(100)),
    total_emails_sent: count,
    total_emails_opened: count,
    total_emails_clicked: count,
    last_activity_at: z.nullable(UtcTimestamp),
    last_email_opened_at: z.nullable(UtcTimestamp),
    last_email_clicked_at: z
      .nullable(UtcTimestamp)
      .check(z.meta({ description: 'The last click on a link of an e-mail by a person (link scanners never count)' })),
    last_workflow_at: z.nullable(UtcTimestamp),
    created_by: z
      .int()
      .check(z.gte(0), z.meta({ description: 'Id of the API key that created the contact (0: none)' })),
    created_at: UtcTimestamp,
    updated_at: UtcTimestamp,
  })
  .check(z.meta({ id: 'Contact', description: 'A recipient owned by the client. Unset values are null.' }));
export type ContactView = z.output<typeof ContactView>;

/** The SPEC.md Contact as the API shows it at `now`; unset values are null, timestamps RFC 3339 UTC. */
export function toContactView(c: ContactRecord, now: Date, topics: readonly TopicRecord[]): ContactView {
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
    topic_subscriptions: topicSubscriptionsOf(c, topics),
    unsubscribe_reason: c.unsubscribe_reason ?? null,
    unsubscribed_at: c.unsubscribed_at ?? null,
    last_purchase_at: c.last_purchase_at ?? null,
    signup_source: c.signup_source ?? null,
    source: c.source,
    custom_fields: fields.map(([, f]) => f.id).sort((a, b) => a - b),
    custom_field_values: Object.fromEntries(
      fields.sort(([a], [b]) => a.localeCompare(b)).map(([name, f]) => [name, f.value]),
    ),
    tags: c.tags ?? [],
    active_states: c.active_states ?? 0,
    active_workflow_count: c.active_workflow_count ?? 0,
    health_score: healthOf(c, now),
    total_emails_sent: c.total_emails_sent ?? 0,
    total_emails_opened: c.total_emails_opened ?? 0,
    total_emails_clicked: c.total_emails_clicked ?? 0,
    last_activity_at: c.last_activity_at ?? null,
    last_email_opened_at: c.last_email_opened_at ?? null,
    last_email_clicked_at: c.last_email_clicked_at ?? null,
    last_workflow_at: c.last_workflow_at ?? null,
    created_by: c.created_by,
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}
