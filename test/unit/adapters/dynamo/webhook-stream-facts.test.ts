import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { factsOfStreamRecords } from '../../../../shared/adapters/dynamo/webhook-stream-facts.js';

const AT = '2026-01-15T10:00:00.000Z';

const record = (
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  next?: Record<string, unknown>,
  previous?: Record<string, unknown>,
): DynamoDBRecord => ({
  eventID: 'e1',
  eventName,
  dynamodb: {
    Keys: marshall({ pk: (next ?? previous)!['pk'], sk: (next ?? previous)!['sk'] }) as never,
    ...(next ? { NewImage: marshall(next, { removeUndefinedValues: true }) as never } : {}),
    ...(previous ? { OldImage: marshall(previous, { removeUndefinedValues: true }) as never } : {}),
  },
});
const log = (status: number, extra: Record<string, unknown> = {}) => ({
  pk: 'SENT#7#se-1',
  sk: `LOG#${AT}#l${status}`,
  id: `l${status}`,
  created_at: AT,
  status,
  ...extra,
});
const contact = (subscribed: boolean, extra: Record<string, unknown> = {}) => ({
  pk: 'CONTACT#7#3',
  sk: 'CONTACT',
  id: 3,
  client_id: 7,
  email: 'ada@example.com',
  is_subscribed: subscribed,
  custom_fields: {},
  tags: [],
  updated_at: AT,
  ...extra,
});
const execution = (status: number, extra: Record<string, unknown> = {}) => ({
  pk: 'EXEC#7#11',
  sk: 'EXEC',
  id: 11,
  client_id: 7,
  workflow_id: 1,
  contact_id: 3,
  event_id: 21,
  status,
  is_test: false,
  created_at: AT,
  updated_at: AT,
  ...extra,
});

describe('webhook facts in the table change stream', () => {
  it('reads each status log inserted on a sent e-mail as its e-mail event, and nothing else of the e-mail', () => {
    const facts = factsOfStreamRecords([
      record('INSERT', log(1)), // queued: the claim's log, no fact
      record('INSERT', log(2)), // the executor's sent log
      record('INSERT', log(2, { id: 'ses-send', detail: 'SES Send event' })), // SES's own Send confirmation
      record('INSERT', log(3)),
      record('INSERT', log(6, { detail: 'Delayed' })),
      record('INSERT', log(7, { bounce_type: 'hard', detail: 'Permanent bounce (General)' })),
      record('INSERT', log(8)),
      record('INSERT', log(4, { is_bot: true, bot_reason: 'apple_mpp' })),
      record('INSERT', log(5, { url: 'https://app.example/x' })),
      record('INSERT', log(9)),
      record('INSERT', log(10)),
      record('INSERT', log(11)), // unsubscribed: the contact's own fact
      record('REMOVE', undefined, log(1)), // a released claim's log
      record('MODIFY', { pk: 'SENT#7#se-1', sk: 'SENT', status: 3 }, { pk: 'SENT#7#se-1', sk: 'SENT', status: 2 }),
    ]);

    expect(facts.map((f) => f.type)).toEqual([
      'email.sent',
      'email.delivered',
      'email.delivery_delayed',
      'email.bounced',
      'email.complained',
      'email.opened',
      'email.clicked',
      'email.failed',
      'email.failed',
    ]);
    expect(facts[0]).toEqual({
      kind: 'email',
      type: 'email.sent',
      client_id: 7,
      sent_email_id: 'se-1',
      log: { id: 'l2', created_at: AT, status: 2 },
    });
    expect(facts[3]).toMatchObject({ log: { bounce_type: 'hard' } });
    expect(facts[5]).toMatchObject({ log: { is_bot: true, bot_reason: 'apple_mpp' } });
  });

  it('reads a contact whose subscription turned as unsubscribed or subscribed, with its reason (an empty map survives)', () => {
    const facts = factsOfStreamRecords([
      record('MODIFY', contact(false, { unsubscribed_at: AT, unsubscribe_reason: 'unsubscribe_link' }), contact(true)),
      record('MODIFY', contact(true, { updated_at: '2026-01-16T10:00:00.000Z' }), contact(false)),
      record('MODIFY', contact(true, { first_name: 'Ada' }), contact(true)), // no change of subscription
      record('INSERT', contact(false)), // created unsubscribed: a state, not a change
    ]);

    expect(facts).toEqual([
      {
        kind: 'contact',
        type: 'contact.unsubscribed',
        client_id: 7,
        contact: {
          id: 3,
          email: 'ada@example.com',
          is_subscribed: false,
          unsubscribed_at: AT,
          unsubscribe_reason: 'unsubscribe_link',
          updated_at: AT,
        },
      },
      {
        kind: 'contact',
        type: 'contact.subscribed',
        client_id: 7,
        contact: { id: 3, email: 'ada@example.com', is_subscribed: true, updated_at: '2026-01-16T10:00:00.000Z' },
      },
    ]);
  });

  it('reads an execution that became failed or skipped once, and no other change of an execution', () => {
    // A system journey's journey facts of the same changes are webhook-system-journey-facts.test.ts's.
    const facts = factsOfStreamRecords([
      record('MODIFY', execution(4, { reason: 'rejected' }), execution(2)),
      record('INSERT', execution(6, { reason: 'unsubscribed' })),
      record('MODIFY', execution(4, { reason: 'rejected', updated_at: 'later' }), execution(4)), // already failed
      record('MODIFY', execution(3), execution(2)),
      record('INSERT', { pk: 'EVENT#7#21', sk: 'EVENT', type: 'signup' }),
      record('INSERT', { pk: 'CLIENT#7', sk: 'SETTINGS' }),
    ]).filter((f) => f.kind !== 'journey');

    expect(facts.map((f) => [f.type, f.kind === 'execution' ? f.execution.reason : undefined])).toEqual([
      ['execution.failed', 'rejected'],
      ['execution.skipped', 'unsubscribed'],
    ]);
    expect(facts[0]).toMatchObject({
      client_id: 7,
      execution: { id: 11, workflow_id: 1, contact_id: 3, event_id: 21, status: 4, is_test: false },
    });
  });
});
