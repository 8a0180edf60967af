import type { ContactRecord } from '../../../shared/domain/contacts/contact-store.js';

/** A stored contact record with every required field: Ann (id 42) of client 7, subscribed, no activity yet; `fields` replace the defaults. */
export function contactRecord(fields: Partial<ContactRecord> = {}): ContactRecord {
  return {
    id: 42,
    client_id: 7,
    email: 'ann@example.com',
    first_name: 'Ann',
    client_contact_id: 'crm-1',
    is_subscribed: true,
    source: 1,
    custom_fields: {},
    tags: [],
    active_states: 0,
    active_workflow_count: 0,
    health_score: 0,
    total_emails_sent: 0,
    total_emails_opened: 0,
    total_emails_clicked: 0,
    created_by: 1,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...fields,
  };
}
