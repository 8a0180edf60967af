import { describe, expect, it } from 'vitest';
import { erasedWebhookPayload } from '../../../../shared/domain/webhooks/erased-payload.js';

describe('erasedWebhookPayload', () => {
  it('keeps ids, type, status and times of an e-mail fact, at any depth, and marks it erased', () => {
    const payload = JSON.stringify({
      type: 'email.clicked',
      id: 'msg_1',
      created_at: '2026-11-28T10:00:00.000Z',
      data: {
        sent_email_id: 'se-1',
        status: 'clicked',
        occurred_at: '2026-11-28T10:00:00.000Z',
        contact_id: 42,
        to_email: 'ann@example.com',
        subject: 'Hi Ann',
        ip_address: '203.0.113.9',
        user_agent: 'Mozilla/5.0',
        url: 'https://acme.test/?u=ann',
        event: { id: 7, idempotency_key: 'signup-ann@example.com', type: 'signup' },
      },
    });

    expect(JSON.parse(erasedWebhookPayload(payload))).toEqual({
      type: 'email.clicked',
      id: 'msg_1',
      created_at: '2026-11-28T10:00:00.000Z',
      data: {
        sent_email_id: 'se-1',
        status: 'clicked',
        occurred_at: '2026-11-28T10:00:00.000Z',
        contact_id: 42,
        event: { id: 7, type: 'signup' },
        erased: true,
      },
    });
  });

  it('keeps only the contact id of a contact fact: no address, names, client_contact_id or topics', () => {
    const payload = JSON.stringify({
      type: 'contact.topic_changed',
      id: 'msg_2',
      created_at: '2026-11-28T10:00:00.000Z',
      data: {
        contact: {
          id: 42,
          email: 'ann@example.com',
          first_name: 'Ann',
          last_name: 'Lee',
          client_contact_id: 'crm-9',
          updated_at: '2026-11-28T10:00:00.000Z',
        },
        topics: [{ topic_id: 1, is_subscribed: false }],
      },
    });

    const erased = erasedWebhookPayload(payload);

    expect(JSON.parse(erased).data).toEqual({
      contact: { id: 42, updated_at: '2026-11-28T10:00:00.000Z' },
      erased: true,
    });
    for (const value of ['ann@', 'Ann', 'Lee', 'crm-9']) expect(erased).not.toContain(value);
  });
});
