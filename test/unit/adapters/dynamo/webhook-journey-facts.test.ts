import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { streamFunctions } from '../../../../functions/streams.js';
import { runItem } from '../../../../shared/adapters/dynamo/run-item.js';
import { ENTITY } from '../../../../shared/adapters/dynamo/keys.js';
import { factsOfStreamRecords } from '../../../../shared/adapters/dynamo/webhook-stream-facts.js';
import type { RunRecord } from '../../../../shared/domain/runs/run-record.js';
import type { JourneyFact } from '../../../../shared/domain/webhooks/facts.js';
import { buildWebhookMessage, webhookMessageIdOf } from '../../../../shared/domain/webhooks/webhook-payloads.js';

const AT = '2026-11-28T10:00:00.000Z';
const LATER = '2026-11-28T10:00:01.000Z';

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

const entered: RunRecord = {
  id: 55,
  client_id: 7,
  journey_id: 1000,
  version: 1,
  contact_id: 9,
  event_id: 321,
  key_hash: 'abc',
  key_value: 'cart-1',
  status: 'active',
  step_id: 'tag',
  seq: 1,
  step_entered_at: AT,
  due_at: AT,
  sends: {},
  branches: {},
  arms: {},
  path: [],
  event: { type: 'project_created', ts: AT },
  created_at: AT,
  updated_at: AT,
};
// One transition through the instant steps update_contact and exit: two path entries and the end, all seq 2.
const exited: RunRecord = {
  ...entered,
  status: 'exited',
  reason: 'exit_step',
  step_id: 'out',
  seq: 2,
  path: [
    { step: 'tag', seq: 2, at: LATER },
    { step: 'out', seq: 2, at: LATER },
  ],
  updated_at: LATER,
  ended_at: LATER,
};
const item = (run: RunRecord) => runItem(run) as unknown as Record<string, unknown>;

describe('journey facts in the table change stream', () => {
  it('reads entered from the insert, each step left and the end from the ending write, in seq and path order', () => {
    const facts = factsOfStreamRecords([
      record('INSERT', item(entered)),
      record('MODIFY', item(exited), item(entered)),
    ]);

    expect(facts.map((f) => f.type)).toEqual([
      'journey.entered',
      'journey.step_completed',
      'journey.step_completed',
      'journey.exited',
    ]);
    const messages = facts.map(
      (f) => JSON.parse(buildWebhookMessage(f, {}).payload) as { data: Record<string, unknown> },
    );
    expect(messages.map((m) => m.data)).toEqual([
      {
        run_id: 55,
        execution_id: null,
        journey_id: 1000,
        journey_version: 1,
        contact_id: 9,
        seq: 1,
        occurred_at: AT,
        step_id: 'tag',
        key_value: 'cart-1',
        event: { id: 321, idempotency_key: null, type: null },
      },
      {
        run_id: 55,
        execution_id: null,
        journey_id: 1000,
        journey_version: 1,
        contact_id: 9,
        seq: 2,
        occurred_at: LATER,
        step_id: 'tag',
        via: null,
      },
      {
        run_id: 55,
        execution_id: null,
        journey_id: 1000,
        journey_version: 1,
        contact_id: 9,
        seq: 2,
        occurred_at: LATER,
        step_id: 'out',
        via: null,
      },
      {
        run_id: 55,
        execution_id: null,
        journey_id: 1000,
        journey_version: 1,
        contact_id: 9,
        seq: 2,
        occurred_at: LATER,
        step_id: 'out',
        status: 'exited',
        reason: 'exit_step',
      },
    ]);
    expect(buildWebhookMessage(facts[0]!, {}).contact_id).toBe(9);
  });

  it('gives a redelivered change the same message ids, and every fact its own', () => {
    const batch = [record('INSERT', item(entered)), record('MODIFY', item(exited), item(entered))];
    const first = factsOfStreamRecords(batch).map(webhookMessageIdOf);
    const again = factsOfStreamRecords(batch).map(webhookMessageIdOf);

    expect(again).toEqual(first);
    expect(new Set(first).size).toBe(4);
  });

  it('reads one step per transition and no fact from a write that neither moves nor ends the run', () => {
    const waiting: RunRecord = {
      ...entered,
      status: 'waiting',
      step_id: 'wait',
      seq: 2,
      path: [{ step: 'tag', seq: 2, at: LATER }],
      updated_at: LATER,
    };
    const resumed: RunRecord = { ...waiting, status: 'active', seq: 3, resumed_by: { event_id: 400, at: LATER } };
    const completed: RunRecord = {
      ...resumed,
      status: 'completed',
      seq: 4,
      path: [...waiting.path, { step: 'wait', seq: 4, at: LATER, via: 'on_event' }],
      ended_at: LATER,
    };

    const facts = factsOfStreamRecords([
      record('MODIFY', item(waiting), item(entered)),
      record('MODIFY', item(resumed), item(waiting)),
      record('MODIFY', item(completed), item(resumed)),
      record('REMOVE', undefined, item(completed)),
    ]);

    expect((facts as JourneyFact[]).map((f) => [f.type, f.seq])).toEqual([
      ['journey.step_completed', 2],
      ['journey.step_completed', 4],
      ['journey.exited', 4],
    ]);
    expect(JSON.parse(buildWebhookMessage(facts[1]!, {}).payload).data.via).toBe('on_event');
    expect(JSON.parse(buildWebhookMessage(facts[2]!, {}).payload).data.status).toBe('completed');
  });

  it('reads the erasure of a run in flight as its end carrying ids only', () => {
    const { event: _event, key_value: _key, ...scrubbed } = entered;
    const erased = {
      ...scrubbed,
      status: 'ended',
      reason: 'contact_erased',
      seq: 2,
      updated_at: LATER,
      ended_at: LATER,
    } as unknown as RunRecord;

    const facts = factsOfStreamRecords([
      record('MODIFY', item(erased), item(entered)),
      // An ended run scrubbed later: no fact.
      record('MODIFY', item({ ...erased, updated_at: LATER }), item({ ...erased, event: entered.event })),
    ]);

    expect(facts.map((f) => f.type)).toEqual(['journey.exited']);
    expect((facts[0] as JourneyFact).run.erased).toBe(true);
    const message = buildWebhookMessage(facts[0]!, { contactErasedAt: LATER });
    expect(message.erased_at).toBe(LATER);
    expect(JSON.parse(message.payload).data).toEqual({
      run_id: 55,
      execution_id: null,
      journey_id: 1000,
      journey_version: 1,
      contact_id: 9,
      seq: 2,
      occurred_at: LATER,
      step_id: 'tag',
      status: 'ended',
      erased: true,
    });
  });

  it('the webhook stream function takes run changes', () => {
    expect(streamFunctions.find((f) => f.handler === 'webhook-facts')?.entities).toContain(ENTITY.run);
  });
});
