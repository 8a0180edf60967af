import { beforeEach, describe, expect, it } from 'vitest';
import { MemoryWebhookOutbox } from '../../../../shared/adapters/memory/webhook-outbox.js';
import { MemoryWebhookStore } from '../../../../shared/adapters/memory/webhook-store.js';
import type { WebhookFact } from '../../../../shared/domain/webhooks/facts.js';
import { produceWebhooks } from '../../../../shared/domain/webhooks/produce-webhooks.js';
import { RecordingQueue } from '../engine/engine-harness.js';

const CLIENT = 7;
const NOW = '2026-01-15T10:00:00.000Z';
const ERASED = '2026-01-15T10:00:02.000Z';

const unsubscribed: WebhookFact = {
  kind: 'contact',
  type: 'contact.unsubscribed',
  client_id: CLIENT,
  contact: {
    id: 3,
    email: 'ada@example.com',
    first_name: 'Ada',
    last_name: 'Lovelace',
    client_contact_id: 'crm-3',
    is_subscribed: false,
    unsubscribe_reason: 'api',
    unsubscribed_at: NOW,
    updated_at: NOW,
  },
};
const clicked: WebhookFact = {
  kind: 'email',
  type: 'email.clicked',
  client_id: CLIENT,
  sent_email_id: 'se-1',
  log: {
    id: 'click-1',
    created_at: NOW,
    status: 5,
    ip_address: '203.0.113.9',
    user_agent: 'Mozilla/5.0',
    url: 'https://acme.test/?u=ada',
    is_bot: false,
  },
};

let outbox: MemoryWebhookOutbox;
let queue: RecordingQueue;

beforeEach(async () => {
  const webhooks = new MemoryWebhookStore();
  outbox = new MemoryWebhookOutbox(webhooks);
  queue = new RecordingQueue();
  await webhooks.create(
    {
      id: 1,
      client_id: CLIENT,
      url: 'https://hooks.example.com/1',
      description: '',
      event_types: null,
      enabled: true,
      humans_only: false,
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      created_at: NOW,
      updated_at: NOW,
    },
    10,
  );
  outbox.sentEmailFacts.set(`${CLIENT}:se-1`, {
    id: 'se-1',
    client_id: CLIENT,
    contact_id: 3,
    execution_id: 11,
    workflow_id: 1,
    email_template_id: 1,
    from_email: 'hello@app.example',
    to_email: '',
    subject: '',
    status: 5,
    created_at: NOW,
    event_id: null,
    erased_at: ERASED,
  });
});

describe('a fact the stream hands over after its contact was erased', () => {
  it('is stored and delivered with ids only, never with the values its stream image still holds', async () => {
    outbox.erased.set(`${CLIENT}:3`, ERASED);

    const outcome = await produceWebhooks({ webhookOutbox: outbox, queue }, [unsubscribed, clicked]);

    expect(outcome).toMatchObject({ messages: 2, deliveries: 2 });
    for (const message of outbox.messages.values()) {
      expect(message).toMatchObject({ contact_id: 3, erased_at: ERASED });
      for (const value of ['ada@', 'Ada', 'Lovelace', 'crm-3', '203.0.113.9', 'Mozilla', 'acme.test'])
        expect(message.payload).not.toContain(value);
      expect(JSON.parse(message.payload).data.erased).toBe(true);
    }
  });

  it('keeps a contact fact whole while the contact is not erased', async () => {
    await produceWebhooks({ webhookOutbox: outbox, queue }, [unsubscribed]);

    const [message] = [...outbox.messages.values()];
    expect(message!.payload).toContain('ada@example.com');
    expect(message).not.toHaveProperty('erased_at');
  });
});
