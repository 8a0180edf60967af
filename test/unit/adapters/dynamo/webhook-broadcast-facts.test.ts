import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { streamFunctions, type StreamFunctionDefinition } from '../../../../functions/streams.js';
import { matches } from '../../../../local/engine/stream-poller.js';
import { factsOfStreamRecords } from '../../../../shared/adapters/dynamo/webhook-stream-facts.js';
import { factIdentity } from '../../../../shared/domain/webhooks/facts.js';
import { buildWebhookMessage } from '../../../../shared/domain/webhooks/webhook-payloads.js';

const AT = '2026-11-28T10:00:00.000Z';
const STARTED = '2026-11-28T10:05:00.000Z';
const DONE = '2026-11-28T10:09:00.000Z';

const record = (next: Record<string, unknown>, previous?: Record<string, unknown>): DynamoDBRecord => ({
  eventID: 'e1',
  eventName: previous ? 'MODIFY' : 'INSERT',
  dynamodb: {
    Keys: marshall({ pk: next['pk'], sk: next['sk'] }) as never,
    NewImage: marshall(next, { removeUndefinedValues: true }) as never,
    ...(previous ? { OldImage: marshall(previous, { removeUndefinedValues: true }) as never } : {}),
  },
});
const head = (status: string, extra: Record<string, unknown> = {}) => ({
  pk: 'CLIENT#7',
  sk: 'BROADCAST#00000012',
  entity: 'broadcast',
  id: 12,
  client_id: 7,
  name: 'November news',
  status,
  draft_version: 2,
  definition: { audience: { segment_id: 3 }, category: 'marketing', variants: [{ template_id: 1 }] },
  created_at: AT,
  updated_at: AT,
  ...extra,
});
const snapshot = { sources: 16, done: [], total: 0 };

describe('broadcast facts in the table change stream', () => {
  it('reads started when the head leaves scheduled for snapshotting and completed when it becomes sent, once each', () => {
    // Act: a head's whole life, with the writes between that are no fact.
    const facts = factsOfStreamRecords([
      record(head('draft')),
      record(head('draft', { draft_version: 3 }), head('draft')),
      record(head('scheduled', { scheduled_at: AT }), head('draft')),
      record(head('snapshotting', { started_at: STARTED, snapshot }), head('scheduled')),
      record(
        head('snapshotting', { started_at: STARTED, snapshot: { ...snapshot, done: [1], total: 40 } }),
        head('snapshotting', { started_at: STARTED, snapshot }),
      ),
      record(head('sending', { started_at: STARTED }), head('snapshotting', { started_at: STARTED })),
      record(head('paused', { started_at: STARTED }), head('sending', { started_at: STARTED })),
      record(head('sending', { started_at: STARTED }), head('paused', { started_at: STARTED })),
      record(
        head('sent', { started_at: STARTED, completed_at: DONE, snapshot: { ...snapshot, total: 57 } }),
        head('sending', { started_at: STARTED }),
      ),
      // The same change read twice (a retried stream batch) is the same fact.
      record(head('snapshotting', { started_at: STARTED, snapshot }), head('scheduled')),
      // A cancelled broadcast never completes.
      record(head('cancelled', { cancelled_at: DONE }), head('sending')),
    ]);

    // Assess
    expect(facts.map((f) => f.type)).toEqual(['broadcast.started', 'broadcast.completed', 'broadcast.started']);
    expect(factIdentity(facts[0]!)).toBe(factIdentity(facts[2]!));
    expect(factIdentity(facts[0]!)).not.toBe(factIdentity(facts[1]!));
    const started = JSON.parse(buildWebhookMessage(facts[0]!, {}).payload);
    const completed = JSON.parse(buildWebhookMessage(facts[1]!, {}).payload);
    expect(started).toMatchObject({
      type: 'broadcast.started',
      created_at: STARTED,
      data: {
        broadcast_id: 12,
        name: 'November news',
        audience: { segment_id: 3 },
        category: 'marketing',
        recipients: null,
        status: 'snapshotting',
        started_at: STARTED,
        completed_at: null,
      },
    });
    expect(completed).toMatchObject({
      type: 'broadcast.completed',
      created_at: DONE,
      data: { broadcast_id: 12, recipients: 57, status: 'sent', started_at: STARTED, completed_at: DONE },
    });
  });

  it('lets broadcast heads through to the webhook-facts function', () => {
    const webhookFacts = streamFunctions.find((f) => f.handler === 'webhook-facts') as StreamFunctionDefinition;
    expect(matches(webhookFacts, record(head('sent')))).toBe(true);
  });
});
