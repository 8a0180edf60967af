import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '../../../../shared/adapters/dynamo/keys.js';
import { DynamoProcessingStore } from '../../../../shared/adapters/dynamo/processing-store.js';
import { runItem } from '../../../../shared/adapters/dynamo/run-item.js';
import type { EventRecord } from '../../../../shared/domain/events/event-record.js';
import type { ProcessingCommit } from '../../../../shared/domain/events/processing-store.js';
import type { RunRecord } from '../../../../shared/domain/runs/run-record.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const TABLE = 'tbl';
const C = 7;
const AT = '2026-01-15T10:00:00.000Z';
const HASH = 'ab'.repeat(32);
const EXP = Math.floor(Date.parse(AT) / 1000) + 90 * 86_400;

const event: EventRecord = {
  id: 11,
  client_id: C,
  type: 'checkout_completed',
  email: 'ann@example.com',
  auto_create_contact: false,
  ts: AT,
  payload: { cart_id: 'A-1' },
  mode: 'async',
  queue_status: 'processed',
  retry_count: 0,
  contact_id: 42,
  created_at: AT,
};

const run: RunRecord = {
  id: 900,
  client_id: C,
  journey_id: 1000,
  version: 1,
  contact_id: 42,
  event_id: 11,
  key_hash: HASH,
  key_value: 'A-1',
  status: 'active',
  step_id: 'first',
  seq: 1,
  step_entered_at: AT,
  due_at: AT,
  sends: {},
  branches: {},
  arms: {},
  path: [],
  event: { type: 'cart_abandoned', ts: AT },
  created_at: AT,
  updated_at: AT,
};

const commit = (reentry: 'once' | 'every_days' | 'always'): ProcessingCommit => ({
  event,
  executions: [],
  contact: {
    contactId: 42,
    workflowsStarted: 0,
    at: AT,
    runsStarted: [{ runId: 900, journeyId: 1000, keyHash: HASH }],
    waitsRemoved: [800, 700],
    runsRemoved: [700],
    waitsVersionRead: 4,
  },
  entries: [
    {
      run,
      lock: {
        journeyId: 1000,
        contactId: 42,
        keyHash: HASH,
        runId: 900,
        reentry,
        enteredAt: AT,
        ...(reentry === 'every_days' ? { cutoff: '2025-12-16T10:00:00.000Z', expiresAt: 1_771_149_600 } : {}),
      },
    },
  ],
  resolutions: [{ runId: 800, seq: 2, stepId: 'wait_checkout', eventId: 11, at: AT }],
  runExits: [{ runId: 700, journeyId: 1001, contactId: 42, keyHash: HASH, at: AT }],
});

const cancelled = (reasons: { Code: string; Item?: Record<string, unknown> }[]) =>
  new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: reasons as never });
const none = { Code: 'None' };
const failed = { Code: 'ConditionalCheckFailed' };
const items = () => dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;

beforeEach(() => dbMock.reset());

describe('DynamoProcessingStore.commit with journeys', () => {
  it('writes the run, its lock, the contact markers, the resolution, the exit and the lock release in one transaction', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});
    const store = new DynamoProcessingStore(db, TABLE);

    // Act
    const outcome = await store.commit(commit('once'));

    // Assess
    expect(outcome).toBe('committed');
    expect(dbMock.calls()).toHaveLength(1);
    const [eventPut, runPut, lockPut, contact, resolution, exit, release] = items();
    expect(items()).toHaveLength(7);
    expect(eventPut!.Put!.Item).toMatchObject(keys.event(C, 11));
    expect(runPut).toEqual({
      Put: { TableName: TABLE, Item: runItem(run), ConditionExpression: 'attribute_not_exists(pk)' },
    });
    expect(lockPut).toEqual({
      Put: {
        TableName: TABLE,
        Item: { ...keys.runLock(C, 1000, 42, HASH), run_id: 900, active: true, entered_at: AT },
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    });
    expect(contact).toEqual({
      Update: {
        TableName: TABLE,
        Key: keys.contact(C, 42),
        UpdateExpression: 'SET updated_at = :at, #rs0 = :rs0 REMOVE #wr0, #wr1, #rr0',
        ConditionExpression: 'attribute_exists(pk) AND #wv = :wv',
        ExpressionAttributeNames: {
          '#rs0': 'run_900',
          '#wr0': 'wait_800',
          '#wr1': 'wait_700',
          '#rr0': 'run_700',
          '#wv': 'waits_v',
        },
        ExpressionAttributeValues: { ':at': AT, ':rs0': { j: 1000, q: 1, k: HASH }, ':wv': 4 },
      },
    });
    expect(resolution).toEqual({
      Update: {
        TableName: TABLE,
        Key: keys.run(C, 800),
        UpdateExpression:
          'SET #status = :active, seq = :next, resumed_by = :by, due_at = :at, updated_at = :at, gsi3pk = :g3pk, gsi3sk = :g3sk',
        ConditionExpression: 'seq = :seq AND #status = :waiting AND step_id = :step',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':active': 'active',
          ':waiting': 'waiting',
          ':seq': 2,
          ':next': 3,
          ':step': 'wait_checkout',
          ':by': { event_id: 11, at: AT },
          ':at': AT,
          ':g3pk': keys.runDueEntry(C, 800, AT).gsi3pk,
          ':g3sk': keys.runDueEntry(C, 800, AT).gsi3sk,
        },
      },
    });
    expect(exit).toEqual({
      Update: {
        TableName: TABLE,
        Key: keys.run(C, 700),
        UpdateExpression:
          'SET #status = :exited, reason = :reason, ended_at = :at, updated_at = :at, expires_at = :exp REMOVE gsi3pk, gsi3sk, due_at',
        ConditionExpression: '#status IN (:active, :waiting)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':exited': 'exited',
          ':reason': 'exit_event',
          ':active': 'active',
          ':waiting': 'waiting',
          ':at': AT,
          ':exp': EXP,
        },
      },
    });
    expect(release).toEqual({
      Update: {
        TableName: TABLE,
        Key: keys.runLock(C, 1001, 42, HASH),
        UpdateExpression: 'SET active = :f',
        ConditionExpression: 'run_id = :run',
        ExpressionAttributeValues: { ':f': false, ':run': 700 },
      },
    });
  });

  it.each([
    [
      'every_days',
      'attribute_not_exists(pk) OR (active = :f AND entered_at < :cutoff)',
      { ':f': false, ':cutoff': '2025-12-16T10:00:00.000Z' },
    ],
    ['always', 'attribute_not_exists(pk) OR active = :f', { ':f': false }],
  ] as const)('conditions an entry of a %s journey on its re-entry rule', async (reentry, condition, values) => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});
    const store = new DynamoProcessingStore(db, TABLE);

    // Act
    await store.commit(commit(reentry));

    // Assess
    expect(items()[2]!.Put).toMatchObject({ ConditionExpression: condition, ExpressionAttributeValues: values });
    if (reentry === 'every_days') expect(items()[2]!.Put!.Item).toMatchObject({ expires_at: 1_771_149_600 });
  });

  it('conditions the contact on waits_v being absent when it was read absent', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});
    const store = new DynamoProcessingStore(db, TABLE);
    const c = commit('once');

    // Act
    await store.commit({ ...c, contact: { ...c.contact!, waitsVersionRead: null } });

    // Assess
    expect(items()[3]!.Update!.ConditionExpression).toBe('attribute_exists(pk) AND attribute_not_exists(#wv)');
  });

  it.each([
    [
      'a lock held by a run in flight',
      [none, none, { ...failed, Item: { active: { BOOL: true } } }, none, none, none, none],
      { moved: [], refused: [{ journey_id: 1000, outcome: 'in_flight' }] },
    ],
    [
      'a lock of an ended run inside its window',
      [none, none, { ...failed, Item: { active: { BOOL: false } } }, none, none, none, none],
      { moved: [], refused: [{ journey_id: 1000, outcome: 'reentry_window' }] },
    ],
    [
      'a run its timeout moved first',
      [none, none, none, none, failed, none, none],
      { moved: [], resolutionsLost: [800] },
    ],
    [
      'a run that ended before its exit',
      [none, none, none, none, none, failed, none],
      { moved: [], exitsMissed: [700] },
    ],
    [
      'a lock no longer the exited run’s',
      [none, none, none, none, none, none, failed],
      { moved: [], locksGone: [700] },
    ],
    ['the contact changed (waits_v)', [none, none, none, failed, none, none, none], 'contact_changed'],
    ['a drawn run id taken', [none, failed, none, none, none, none, none], 'id_taken'],
    ['the event processed already', [failed, none, none, none, none, none, none], 'already_processed'],
  ])('maps %s to its outcome', async (_, reasons, outcome) => {
    // Prepare
    dbMock.on(TransactWriteCommand).rejects(cancelled(reasons));
    const store = new DynamoProcessingStore(db, TABLE);

    // Act
    const result = await store.commit(commit('once'));

    // Assess
    expect(result).toEqual(outcome);
  });

  it('leaves a lock release out when the exit says to keep it (found gone on an earlier try)', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});
    const store = new DynamoProcessingStore(db, TABLE);
    const c = commit('once');

    // Act
    await store.commit({ ...c, runExits: [{ ...c.runExits![0]!, keepLock: true }] });

    // Assess
    expect(items()).toHaveLength(6);
  });
});

describe('DynamoProcessingStore.loadContext', () => {
  it('reads the journey index and the topics in the same BatchGetItem as the contact and the configuration', async () => {
    // Prepare
    const index = { version: 2, journeys: [] };
    dbMock.on(BatchGetCommand).resolves({
      Responses: {
        [TABLE]: [
          { ...keys.journeyIndex(C), ...index },
          { ...keys.contact(C, 42), id: 42, email: 'a@b.c' },
        ],
      },
    });
    const store = new DynamoProcessingStore(db, TABLE);

    // Act
    const context = await store.loadContext(C, 42, [1]);

    // Assess
    expect(dbMock.calls()).toHaveLength(1);
    const requested = dbMock.commandCalls(BatchGetCommand)[0]!.args[0].input.RequestItems![TABLE]!.Keys;
    expect(requested).toEqual(expect.arrayContaining([keys.journeyIndex(C), keys.topics(C), keys.contact(C, 42)]));
    expect(context.journeyIndex).toEqual(index);
    expect(context.topics).toBeUndefined();
  });
});
