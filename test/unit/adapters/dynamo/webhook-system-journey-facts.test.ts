import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { executionItem } from '../../../../shared/adapters/dynamo/execution-item.js';
import { factsOfStreamRecords } from '../../../../shared/adapters/dynamo/webhook-stream-facts.js';
import type { ExecutionRecord } from '../../../../shared/domain/executions/execution-record.js';
import type { JourneyFact } from '../../../../shared/domain/webhooks/facts.js';
import { systemJourneyExitOf } from '../../../../shared/domain/webhooks/system-journey-facts.js';
import { buildWebhookMessage, webhookMessageIdOf } from '../../../../shared/domain/webhooks/webhook-payloads.js';

const AT = '2026-11-28T10:00:00.000Z';
const LATER = '2026-11-28T10:05:00.000Z';

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

// The welcome workflow's execution (system journey 1) for contact 9, started by event 321.
const queued: ExecutionRecord = {
  id: 77,
  client_id: 7,
  workflow_id: 1,
  contact_id: 9,
  event_id: 321,
  status: 1,
  is_test: false,
  attempt: 1,
  template_id: 1,
  priority_score: 50,
  critical: false,
  cap_day: '2026-11-28',
  scheduled_for: AT,
  event: { type: 'signup', ts: AT },
  created_at: AT,
  updated_at: AT,
};
const item = (e: ExecutionRecord) => executionItem(e) as unknown as Record<string, unknown>;
const executing: ExecutionRecord = { ...queued, status: 2, updated_at: LATER };
const sent: ExecutionRecord = { ...executing, status: 3, processed_at: LATER, sent_email_id: 'se-1' };

const kinds = (facts: readonly { type: string }[]) => facts.map((f) => f.type);
const dataOf = (fact: JourneyFact) => JSON.parse(buildWebhookMessage(fact, {}).payload).data as Record<string, unknown>;
const journeyFacts = (records: DynamoDBRecord[]) =>
  factsOfStreamRecords(records).filter((f): f is JourneyFact => f.kind === 'journey');

describe('system journey facts from their executions', () => {
  it('reads a created execution as entered, its send as the send step completed and its end as exited', () => {
    const facts = journeyFacts([
      record('INSERT', item(queued)),
      record('MODIFY', item(executing), item(queued)), // claimed: no fact
      record('MODIFY', item(sent), item(executing)),
    ]);

    expect(kinds(facts)).toEqual(['journey.entered', 'journey.step_completed', 'journey.exited']);
    const ids = { run_id: null, execution_id: 77, journey_id: 1, journey_version: null, contact_id: 9 };
    expect(facts.map(dataOf)).toEqual([
      {
        ...ids,
        seq: 1,
        occurred_at: AT,
        step_id: 'send',
        key_value: null,
        event: { id: 321, idempotency_key: null, type: null },
      },
      { ...ids, seq: 2, occurred_at: LATER, step_id: 'send', via: null },
      { ...ids, seq: 2, occurred_at: LATER, step_id: 'send', status: 'completed', reason: null },
    ]);
    expect(buildWebhookMessage(facts[0]!, {}).contact_id).toBe(9);
  });

  it.each([
    [{ status: 4, reason: 'rejected' }, 'ended', 'send_failed'],
    [{ status: 6, reason: 'unsubscribed' }, 'ended', 'send_skipped'],
    [{ status: 5, reason: 'goal_reached' }, 'exited', 'exit_event'],
    [{ status: 5, reason: 'queue_timeout' }, 'ended', 'queue_timeout'],
    [{ status: 5, reason: 'contact_erased' }, 'ended', 'contact_erased'],
  ] as const)('maps an execution ending %o to an exit %s / %s, with no step completed', (end, status, reason) => {
    const ended: ExecutionRecord = { ...queued, ...end, updated_at: LATER };

    const facts = journeyFacts([record('MODIFY', item(ended), item(queued))]);

    expect(kinds(facts)).toEqual(['journey.exited']);
    expect(dataOf(facts[0]!)).toMatchObject({ execution_id: 77, step_id: 'send', status, reason, seq: 2 });
  });

  it('maps a cancellation for a reason it does not know to ended / cancelled', () => {
    expect(systemJourneyExitOf(5, 'something_new')).toEqual({ status: 'ended', reason: 'cancelled' });
    expect(systemJourneyExitOf(3, undefined)).toEqual({ status: 'completed' });
  });

  it('reads an execution created skipped (no time left to send) as entered and exited at once', () => {
    const facts = journeyFacts([record('INSERT', item({ ...queued, status: 6, reason: 'no_send_time' }))]);

    expect(kinds(facts)).toEqual(['journey.entered', 'journey.exited']);
    expect(dataOf(facts[1]!)).toMatchObject({ status: 'ended', reason: 'send_skipped' });
  });

  it('keeps the execution facts as they were, before the journey facts of the same change', () => {
    const failed: ExecutionRecord = { ...executing, status: 4, reason: 'rejected' };

    const facts = factsOfStreamRecords([record('MODIFY', item(failed), item(executing))]);

    expect(kinds(facts)).toEqual(['execution.failed', 'journey.exited']);
  });

  it('reads no fact from a retried execution, a repeated end, a deferral, a test send or a client journey send', () => {
    const failed: ExecutionRecord = { ...executing, status: 4, reason: 'rejected' };
    const facts = journeyFacts([
      record('MODIFY', item({ ...failed, status: 7 }), item(failed)),
      record('MODIFY', item({ ...sent, updated_at: 'later' }), item(sent)),
      record('MODIFY', item({ ...queued, scheduled_for: LATER, deferrals: 1 }), item(queued)),
      record('INSERT', item({ ...queued, id: 78, is_test: true })),
      record('INSERT', item({ ...queued, id: 79, workflow_id: 1000, run_id: 5, run_seq: 2, step_id: 'mail' })),
    ]);

    expect(facts).toEqual([]);
  });

  it('reads the erasure of a queued execution as its end carrying ids only', () => {
    const { event: _event, ...scrubbed } = queued;
    const erased: ExecutionRecord = { ...scrubbed, status: 5, reason: 'contact_erased', updated_at: LATER };

    const facts = journeyFacts([record('MODIFY', item(erased), item(queued))]);

    expect(facts[0]!.run.erased).toBe(true);
  });

  it('gives a redelivered change the same message ids, apart from the run and execution facts of equal ids', () => {
    const batch = [record('INSERT', item(queued)), record('MODIFY', item(sent), item(executing))];
    const first = journeyFacts(batch).map(webhookMessageIdOf);

    expect(journeyFacts(batch).map(webhookMessageIdOf)).toEqual(first);
    expect(new Set(first).size).toBe(3);
    // A client journey's run 77 is another run than system journey 1's execution 77.
    const run = { ...journeyFacts(batch)[0]!, run: { ...journeyFacts(batch)[0]!.run, id: 77, execution_id: null } };
    expect(webhookMessageIdOf(run)).not.toBe(first[0]);
  });
});
