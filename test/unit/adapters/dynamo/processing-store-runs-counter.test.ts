import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoProcessingStore } from '../../../../shared/adapters/dynamo/processing-store.js';
import type { EventRecord } from '../../../../shared/domain/events/event-record.js';
import type { ContactEventUpdate, ProcessingCommit } from '../../../../shared/domain/events/processing-store.js';
import { JOURNEY_LIMITS } from '../../../../shared/public/journey-rules.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const AT = '2026-01-15T10:00:00.000Z';

const event: EventRecord = {
  id: 11,
  client_id: 7,
  type: 'account_closed',
  email: 'ann@example.com',
  auto_create_contact: false,
  ts: AT,
  payload: {},
  mode: 'async',
  queue_status: 'processed',
  retry_count: 0,
  contact_id: 42,
  created_at: AT,
};

/** A commit with only the contact update (the runs' own items are processing-store-journeys.test.ts's). */
const commitWith = (contact: Partial<ContactEventUpdate>): ProcessingCommit => ({
  event,
  executions: [],
  contact: { contactId: 42, workflowsStarted: 0, at: AT, ...contact },
});
const contactUpdate = () =>
  dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![1]!.Update! as {
    UpdateExpression: string;
    ConditionExpression: string;
    ExpressionAttributeNames: Record<string, string>;
    ExpressionAttributeValues: Record<string, unknown>;
  };
const started = (...ids: number[]) => ids.map((runId) => ({ runId, journeyId: 1000 }));

beforeEach(() => {
  dbMock.reset();
  dbMock.on(TransactWriteCommand).resolves({});
});

describe('DynamoProcessingStore.commit: the contact run counter', () => {
  it('raises the counter by the runs started less those exited, only while it leaves room under the limit', async () => {
    // Act
    await new DynamoProcessingStore(db, 'tbl').commit(
      commitWith({ runsStarted: started(1, 2, 3), runsRemoved: [9], runsRead: { counter: 5, markers: 5 } }),
    );

    // Assess
    const update = contactUpdate();
    expect(update.UpdateExpression).toBe(
      'SET updated_at = :at, #rs0 = :rs0, #rs1 = :rs1, #rs2 = :rs2 ADD #rn :rn REMOVE #rr0',
    );
    expect(update.ConditionExpression).toBe('attribute_exists(pk) AND #rn <= :rmax');
    expect(update.ExpressionAttributeNames['#rn']).toBe('runs_n');
    expect(update.ExpressionAttributeValues).toMatchObject({ ':rn': 2, ':rmax': JOURNEY_LIMITS.runsPerContact - 2 });
  });

  it('lowers it without a condition when the commit ends more runs than it starts', async () => {
    // Act
    await new DynamoProcessingStore(db, 'tbl').commit(
      commitWith({ runsRemoved: [8, 9], runsRead: { counter: 5, markers: 5 } }),
    );

    // Assess
    const update = contactUpdate();
    expect(update.UpdateExpression).toBe('SET updated_at = :at ADD #rn :rn REMOVE #rr0, #rr1');
    expect(update.ConditionExpression).toBe('attribute_exists(pk)');
    expect(update.ExpressionAttributeValues[':rn']).toBe(-2);
  });

  it('creates it from the markers as read on a contact without one, only while no other write created it', async () => {
    // Act
    await new DynamoProcessingStore(db, 'tbl').commit(
      commitWith({ runsStarted: started(1), workflowsStarted: 1, runsRead: { counter: null, markers: 4 } }),
    );

    // Assess
    const update = contactUpdate();
    expect(update.UpdateExpression).toBe('SET updated_at = :at, #rs0 = :rs0, #rn = :rn ADD active_workflow_count :n');
    expect(update.ConditionExpression).toBe('attribute_exists(pk) AND attribute_not_exists(#rn)');
    expect(update.ExpressionAttributeValues[':rn']).toBe(5);
  });

  it('leaves the counter alone when the commit starts and ends no run', async () => {
    // Act
    await new DynamoProcessingStore(db, 'tbl').commit(commitWith({ tags: ['a'] }));

    // Assess
    expect(contactUpdate().ExpressionAttributeNames ?? {}).not.toHaveProperty('#rn');
  });

  it('answers contact_changed when the counter has no room left (the caller reads again and decides again)', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'cancelled',
        $metadata: {},
        CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }],
      }),
    );

    // Act
    const outcome = await new DynamoProcessingStore(db, 'tbl').commit(
      commitWith({ runsStarted: started(1), runsRead: { counter: 19, markers: 19 } }),
    );

    // Assess
    expect(outcome).toBe('contact_changed');
  });
});
