import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { factsOfStreamRecords } from '../../../../shared/adapters/dynamo/webhook-stream-facts.js';
import { buildWebhookMessage } from '../../../../shared/domain/webhooks/webhook-payloads.js';

const AT = '2026-01-15T10:00:00.000Z';
const LATER = '2026-01-15T10:05:00.000Z';

const modify = (next: Record<string, unknown>, previous: Record<string, unknown>): DynamoDBRecord => ({
  eventID: 'e1',
  eventName: 'MODIFY',
  dynamodb: {
    Keys: marshall({ pk: next['pk'], sk: next['sk'] }) as never,
    NewImage: marshall(next) as never,
    OldImage: marshall(previous) as never,
  },
});
const contact = (extra: Record<string, unknown> = {}) => ({
  pk: 'CONTACT#7#3',
  sk: 'CONTACT',
  id: 3,
  client_id: 7,
  email: 'ada@example.com',
  is_subscribed: true,
  updated_at: AT,
  ...extra,
});

describe('contact.topic_changed in the change stream', () => {
  it('reads a write that changed topic choices as one fact listing the changed topics', () => {
    const facts = factsOfStreamRecords([
      modify(contact({ topic_2: false, topic_1: true, topic_5: true, updated_at: LATER }), contact({ topic_5: true })),
    ]);

    expect(facts).toEqual([
      {
        kind: 'contact',
        type: 'contact.topic_changed',
        client_id: 7,
        contact: { id: 3, email: 'ada@example.com', is_subscribed: true, updated_at: LATER },
        topics: [
          { topic_id: 1, is_subscribed: true },
          { topic_id: 2, is_subscribed: false },
        ],
      },
    ]);
  });

  it('is no fact when no topic choice changed, and the unsubscription is the one fact of a write that did both', () => {
    const facts = factsOfStreamRecords([
      modify(contact({ topic_1: false, total_emails_sent: 4 }), contact({ topic_1: false, total_emails_sent: 3 })),
      modify(
        contact({
          is_subscribed: false,
          unsubscribed_at: LATER,
          unsubscribe_reason: 'preference_page',
          topic_1: false,
        }),
        contact(),
      ),
    ]);

    expect(facts.map((f) => f.type)).toEqual(['contact.unsubscribed']);
  });

  it('delivers the changed topics with the contact, under an id stable across a re-read', () => {
    const [fact] = factsOfStreamRecords([modify(contact({ topic_4: false, updated_at: LATER }), contact())]);
    const [again] = factsOfStreamRecords([modify(contact({ topic_4: false, updated_at: LATER }), contact())]);

    const message = buildWebhookMessage(fact!, {});

    expect(message.id).toBe(buildWebhookMessage(again!, {}).id);
    expect(JSON.parse(message.payload)).toEqual({
      type: 'contact.topic_changed',
      id: message.id,
      created_at: LATER,
      data: {
        contact: {
          id: 3,
          email: 'ada@example.com',
          client_contact_id: null,
          first_name: null,
          last_name: null,
          is_subscribed: true,
          unsubscribed_at: null,
          unsubscribe_reason: null,
          updated_at: LATER,
        },
        topics: [{ topic_id: 4, is_subscribed: false }],
      },
    });
  });
});
