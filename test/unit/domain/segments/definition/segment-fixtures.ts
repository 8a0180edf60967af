import type { ContactRecord } from '../../../../../shared/domain/contacts/contact-store.js';
import type { SegmentCondition, SegmentDefinition } from '../../../../../shared/domain/segments/definition/types.js';
import type { TopicSet } from '../../../../../shared/domain/topics/topic-store.js';

export const NOW = new Date('2026-11-28T12:00:00.000Z');
export const DAY = 86_400_000;

/** An instant `days` before NOW (negative: after), as the contact stores it. */
export const daysAgo = (days: number): string => new Date(NOW.getTime() - days * DAY).toISOString();
/** Epoch seconds `days` before NOW, as the counters keep event times. */
export const secondsAgo = (days: number): number => Math.floor((NOW.getTime() - days * DAY) / 1000);

export const contactWith = (fields: Partial<ContactRecord> & Record<string, unknown> = {}): ContactRecord =>
  ({
    id: 7,
    client_id: 1,
    email: 'ada@example.com',
    first_name: 'Ada',
    is_subscribed: true,
    source: 1,
    custom_fields: { plan: { id: 1, value: 'pro' }, seats: { id: 2, value: 12 } },
    tags: ['vip'],
    active_states: 0,
    active_workflow_count: 0,
    health_score: 80,
    total_emails_sent: 10,
    total_emails_opened: 4,
    total_emails_clicked: 1,
    created_by: 1,
    created_at: '2026-01-15T12:00:00.000Z',
    updated_at: '2026-11-01T08:00:00.000Z',
    ...fields,
  }) as ContactRecord;

export const topics: TopicSet = {
  topics: [
    { id: 1, name: 'News', description: '', default_subscribed: true, created_at: '', updated_at: '' },
    { id: 2, name: 'Deals', description: '', default_subscribed: false, created_at: '', updated_at: '' },
  ],
  next_id: 3,
  version: 2,
};

/** A definition of one group of these conditions, all of them. */
export const allOf = (...conditions: SegmentCondition[]): SegmentDefinition => ({
  match: 'all',
  groups: [{ match: 'all', conditions }],
});
