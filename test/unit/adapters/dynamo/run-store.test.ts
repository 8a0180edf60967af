import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { ConfigCache } from '../../../../shared/adapters/dynamo/config-cache.js';
import { keys } from '../../../../shared/adapters/dynamo/keys.js';
import { runItem } from '../../../../shared/adapters/dynamo/run-item.js';
import { DynamoRunStore } from '../../../../shared/adapters/dynamo/run-store.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../../../shared/domain/executions/execution-record.js';
import type { RunMessage } from '../../../../shared/platform.js';
import { definitionOf, runRecord, T0, versionOf } from '../../domain/runs/run-fixtures.js';

type ItemKeyOf = { pk: string; sk: string };

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const TABLE = 'tbl';
const LATER = '2026-01-15T10:05:00.000Z';

const cancelled = (codes: string[]) =>
  new TransactionCanceledException({
    message: `Transaction cancelled [${codes.join(', ')}]`,
    $metadata: { httpStatusCode: 400 },
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

const execution = (fields: Partial<ExecutionRecord> = {}): ExecutionRecord => ({
  id: 555,
  client_id: 7,
  workflow_id: 1000,
  contact_id: 100,
  event_id: 9001,
  status: EXECUTION_STATUS.queued,
  is_test: false,
  attempt: 1,
  template_id: 3,
  priority_score: 60,
  critical: false,
  cap_day: '2026-01-15',
  scheduled_for: LATER,
  run_id: 4242,
  run_seq: 2,
  step_id: 'remind',
  journey_version: 1,
  category: 'marketing',
  created_at: LATER,
  updated_at: LATER,
  ...fields,
});

beforeEach(() => dbMock.reset());

describe('DynamoRunStore: one read and one transaction a transition', () => {
  it('reads the run, its contact, the awaited execution, the engagement markers and the configuration in one BatchGetItem', async () => {
    // Prepare
    const run = runRecord({ wait: { kind: 'send', execution_id: 555 } });
    dbMock.on(BatchGetCommand).resolves({
      Responses: {
        [TABLE]: [
          runItem(run),
          { ...keys.contact(7, 100), id: 100, email: 'a@example.com', wait_4242: { q: 1 } },
          { ...keys.execution(7, 555), id: 555, status: 3 },
          { ...keys.engagementMarker(7, 'mail-1', 'open'), created_at: T0 },
          { ...keys.journeyIndex(7), version: 3, journeys: [] },
        ],
      },
    });
    const store = new DynamoRunStore(db, TABLE, new ConfigCache(30_000));

    // Act
    const reads = await store.read(7, {
      runId: 4242,
      config: true,
      contactId: 100,
      executionId: 555,
      sentEmailIds: ['mail-1'],
    });

    // Assess
    expect(dbMock.calls()).toHaveLength(1);
    const keysAsked = dbMock.commandCalls(BatchGetCommand)[0]!.args[0].input.RequestItems![TABLE]!.Keys;
    expect(keysAsked).toEqual([
      keys.run(7, 4242),
      keys.contact(7, 100),
      keys.execution(7, 555),
      keys.engagementMarker(7, 'mail-1', 'open'),
      keys.engagementMarker(7, 'mail-1', 'click'),
      keys.settings(7),
      keys.journeyIndex(7),
      keys.topics(7),
      keys.clientOpenHours(7),
    ]);
    expect(reads.run).toEqual(run);
    expect(reads.contact).toEqual({ id: 100, email: 'a@example.com', wait_4242: { q: 1 } });
    expect(reads.execution).toEqual({ id: 555, status: 3 });
    expect(reads.engagement).toEqual({ 'mail-1': { opened: true, clicked: false } });
    expect(reads.index).toEqual({ version: 3, journeys: [] });
  });

  it('takes the configuration from the cache the second time: the read is the run and its contact only', async () => {
    // Prepare
    dbMock.on(BatchGetCommand).resolves({ Responses: { [TABLE]: [runItem(runRecord())] } });
    const store = new DynamoRunStore(db, TABLE, new ConfigCache(30_000));
    await store.read(7, { runId: 4242, config: true, contactId: 100 });

    // Act
    await store.read(7, { runId: 4242, config: true, contactId: 100 });

    // Assess
    expect(dbMock.commandCalls(BatchGetCommand)[1]!.args[0].input.RequestItems![TABLE]!.Keys).toEqual([
      keys.run(7, 4242),
      keys.contact(7, 100),
    ]);
  });

  it('reads a version once per container: it is immutable', async () => {
    // Prepare
    const version = versionOf(definitionOf([{ id: 'start', type: 'exit' }]), 1);
    dbMock
      .on(BatchGetCommand)
      .resolves({ Responses: { [TABLE]: [{ ...keys.journeyVersion(7, 1000, 1), ...version }] } });
    const store = new DynamoRunStore(db, TABLE);

    // Act
    const first = await store.versions(7, 1000, [1]);
    const second = await new DynamoRunStore(db, TABLE).versions(7, 1000, [1]);

    // Assess
    expect(first).toEqual([version]);
    expect(second).toEqual([version]);
    expect(dbMock.commandCalls(BatchGetCommand)).toHaveLength(1);
  });

  it('writes a send step as one TransactWriteItems: the run first at its seq, the contact, the execution, its cap entry', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});
    const store = new DynamoRunStore(db, TABLE);
    const run = runRecord({
      seq: 2,
      step_id: 'remind',
      due_at: '2026-01-15T11:05:00.000Z',
      wait: { kind: 'send', execution_id: 555, until: LATER },
    });

    // Act
    const outcome = await store.transition({
      run,
      expectedSeq: 1,
      contact: {
        contactId: 100,
        opened: { execution_id: 555, workflow_id: 1000, cap_day: '2026-01-15', critical: false, scheduled_for: LATER },
        at: T0,
      },
      executions: [execution()],
    });

    // Assess
    expect(outcome).toBe('committed');
    expect(dbMock.calls()).toHaveLength(1);
    const items = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[0]).toEqual({
      Put: {
        TableName: TABLE,
        Item: { ...runItem(run), gsi3pk: 'RUNDUE#2', gsi3sk: `2026-01-15T11:05:00.000Z#7#${'4242'.padStart(16, '0')}` },
        ConditionExpression: 'seq = :s AND #status IN (:active, :waiting)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':s': 1, ':active': 'active', ':waiting': 'waiting' },
      },
    });
    expect(items[1]).toEqual({
      Update: {
        TableName: TABLE,
        Key: keys.contact(7, 100),
        UpdateExpression: 'SET #a0 = :v1 ADD #a2 :v3',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#a0': 'open_555', '#a2': 'active_workflow_count' },
        ExpressionAttributeValues: { ':v1': { w: 1000, d: '2026-01-15', c: false, s: LATER }, ':v3': 1 },
      },
    });
    expect(items[2]!.Put!.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(items[2]!.Put!.Item).toMatchObject({ ...keys.execution(7, 555), run_id: 4242, run_seq: 2 });
    expect(items[3]).toEqual({
      Update: {
        TableName: TABLE,
        Key: keys.contactDayCap(7, 100, '2026-01-15'),
        UpdateExpression: 'SET expires_at = :exp, #e0 = :p0',
        ExpressionAttributeNames: { '#e0': 'pending_555' },
        ExpressionAttributeValues: { ':exp': Date.parse(LATER) / 1000 + 3 * 86_400, ':p0': 60 },
      },
    });
  });

  it('enters a wait_for_event with its marker and waits_v + 1; ends with the markers removed and the lock released', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});
    const store = new DynamoRunStore(db, TABLE);
    const marker = { j: 1000, v: 1, s: 'checkout', q: 2, e: 'checkout_completed', t: LATER };

    // Act
    await store.transition({
      run: runRecord({ seq: 2, status: 'waiting', due_at: LATER }),
      expectedSeq: 1,
      contact: { contactId: 100, wait: { runId: 4242, marker }, at: T0 },
    });
    await store.transition({
      run: runRecord({ seq: 3, status: 'completed', due_at: undefined, ended_at: LATER }),
      expectedSeq: 2,
      contact: { contactId: 100, removeWait: 4242, removeRun: 4242, at: LATER },
      releaseLock: { journeyId: 1000, contactId: 100, keyHash: 'ab'.repeat(32) },
    });

    // Assess
    const [enter, end] = dbMock.commandCalls(TransactWriteCommand).map((c) => c.args[0].input.TransactItems!);
    expect(enter![1]!.Update).toMatchObject({
      UpdateExpression: 'SET #a0 = :v1 ADD #a2 :v3',
      ExpressionAttributeNames: { '#a0': 'wait_4242', '#a2': 'waits_v' },
      ExpressionAttributeValues: { ':v1': marker, ':v3': 1 },
    });
    expect(end![0]!.Put!.Item).not.toHaveProperty('gsi3pk');
    expect(end![0]!.Put!.Item).toMatchObject({
      status: 'completed',
      expires_at: Date.parse(LATER) / 1000 + 90 * 86_400,
    });
    // The markers go, and the run counter with its run (never below 0 on a contact that had none).
    expect(end![1]!.Update).toMatchObject({
      UpdateExpression: 'SET #a2 = if_not_exists(#a2, :v3) - :v3 REMOVE #a0, #a1',
      ExpressionAttributeNames: { '#a0': 'wait_4242', '#a1': 'run_4242', '#a2': 'runs_n' },
      ExpressionAttributeValues: { ':v3': 1 },
    });
    expect(end![2]).toEqual({
      Update: {
        TableName: TABLE,
        Key: keys.runLock(7, 1000, 100, 'ab'.repeat(32)),
        UpdateExpression: 'SET active = :f',
        ConditionExpression: 'run_id = :run',
        ExpressionAttributeValues: { ':f': false, ':run': 4242 },
      },
    });
  });

  it('conditions an update_contact write on the contact as read', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});
    const store = new DynamoRunStore(db, TABLE);

    // Act
    await store.transition({
      run: runRecord({ seq: 2 }),
      expectedSeq: 1,
      contact: {
        contactId: 100,
        fields: { company: 'Acme', phone: null },
        tags: ['vip'],
        seenUpdatedAt: T0,
        at: LATER,
      },
    });

    // Assess
    const update = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![1]!.Update!;
    expect(update.UpdateExpression).toBe('SET #a0 = :v1, #a3 = :v4, #a5 = :v6 REMOVE #a2');
    expect(update.ConditionExpression).toBe('attribute_exists(pk) AND #a7 = :v8');
    expect(update.ExpressionAttributeNames).toEqual({
      '#a0': 'company',
      '#a2': 'phone',
      '#a3': 'tags',
      '#a5': 'updated_at',
      '#a7': 'updated_at',
    });
    expect(update.ExpressionAttributeValues).toEqual({ ':v1': 'Acme', ':v4': ['vip'], ':v6': LATER, ':v8': T0 });
  });

  it.each([
    ['the run moved on (its seq or status)', ['ConditionalCheckFailed', 'None'], 'stale'],
    ['the contact changed under an update_contact step', ['None', 'ConditionalCheckFailed'], 'contact_changed'],
  ])('answers when %s, having written nothing', async (_case, codes, outcome) => {
    // Prepare
    dbMock.on(TransactWriteCommand).rejects(cancelled(codes));
    const store = new DynamoRunStore(db, TABLE);

    // Act
    const written = await store.transition({
      run: runRecord({ seq: 2 }),
      expectedSeq: 1,
      contact: { contactId: 100, tags: ['x'], seenUpdatedAt: T0, at: LATER },
    });

    // Assess
    expect(written).toBe(outcome);
  });

  it('leaves a lock a newer run holds: the ending is written again without it', async () => {
    // Prepare
    dbMock
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled(['None', 'ConditionalCheckFailed']))
      .resolves({});
    const store = new DynamoRunStore(db, TABLE);

    // Act
    const written = await store.transition({
      run: runRecord({ seq: 2, status: 'completed', due_at: undefined, ended_at: LATER }),
      expectedSeq: 1,
      releaseLock: { journeyId: 1000, contactId: 100 },
    });

    // Assess
    expect(written).toBe('committed');
    const [first, second] = dbMock.commandCalls(TransactWriteCommand).map((c) => c.args[0].input.TransactItems!);
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(1);
  });
});

describe('DynamoRunStore: the RUNDUE sweep and the erasure', () => {
  it('reads each RUNDUE shard before the horizon, then the runs’ seq in one BatchGetItem, leaving out ended ones', async () => {
    // Prepare
    dbMock.on(QueryCommand).callsFake((input: { ExpressionAttributeValues: Record<string, string> }) =>
      input.ExpressionAttributeValues[':pk'] === 'RUNDUE#2'
        ? {
            Items: [
              { gsi3sk: `${T0}#7#${'4242'.padStart(16, '0')}` },
              { gsi3sk: `${T0}#7#${'4250'.padStart(16, '0')}` },
            ],
          }
        : { Items: [] },
    );
    dbMock.on(BatchGetCommand).resolves({
      Responses: {
        [TABLE]: [
          {
            ...keys.run(7, 4242),
            client_id: 7,
            id: 4242,
            seq: 3,
            status: 'active',
            contact_id: 100,
            due_at: T0,
            journey_id: 1000,
            version: 2,
          },
          { ...keys.run(7, 4250), client_id: 7, id: 4250, seq: 5, status: 'completed', contact_id: 101 },
        ],
      },
    });
    const store = new DynamoRunStore(db, TABLE);

    // Act
    const page = await store.dueBefore(LATER, 500);

    // Assess
    expect(page).toEqual({
      runs: [{ client_id: 7, run_id: 4242, seq: 3, contact_id: 100, due_at: T0, journey_id: 1000, version: 2 }],
    });
    const queries = dbMock.commandCalls(QueryCommand).map((c) => c.args[0].input);
    expect(queries).toHaveLength(8);
    expect(queries[0]).toMatchObject({
      IndexName: 'gsi3',
      KeyConditionExpression: '#pk = :pk AND #sk < :before',
      ExpressionAttributeValues: { ':pk': 'RUNDUE#0', ':before': LATER },
    });
    expect(dbMock.commandCalls(BatchGetCommand)).toHaveLength(1);
  });

  it("ends the erased contact's runs in flight, strips every run's event and key value, and deletes their locks", async () => {
    // Prepare
    dbMock.on(BatchGetCommand).resolves({
      Responses: {
        [TABLE]: [
          {
            ...keys.run(7, 4242),
            client_id: 7,
            id: 4242,
            journey_id: 1000,
            contact_id: 100,
            seq: 2,
            status: 'waiting',
          },
          {
            ...keys.run(7, 4243),
            client_id: 7,
            id: 4243,
            journey_id: 1001,
            contact_id: 100,
            seq: 4,
            status: 'completed',
          },
        ],
      },
    });
    dbMock.on(UpdateCommand).resolves({});
    dbMock.on(DeleteCommand).resolves({});
    const store = new DynamoRunStore(db, TABLE);

    // Act
    const erased = await store.eraseRuns(7, [4242, 4243], LATER);

    // Assess
    expect(erased).toEqual({ runs: 2, ended: 1 });
    const updates = dbMock.commandCalls(UpdateCommand).map((c) => c.args[0].input);
    expect(updates.find((u) => u.Key!['pk'] === 'RUN#7#4242')).toMatchObject({
      UpdateExpression:
        'SET #status = :ended, #reason = :reason, #seq = :next, ended_at = :at, updated_at = :at, expires_at = :exp ' +
        'REMOVE #event, key_value, due_at, #wait, resumed_by, gsi3pk, gsi3sk',
      ConditionExpression: '#seq = :s',
      ExpressionAttributeValues: expect.objectContaining({ ':s': 2, ':next': 3, ':reason': 'contact_erased' }),
    });
    expect(updates.find((u) => u.Key!['pk'] === 'RUN#7#4243')).toMatchObject({
      UpdateExpression: 'REMOVE #event, key_value',
    });
    expect(dbMock.commandCalls(DeleteCommand).map((c) => c.args[0].input.Key)).toEqual([
      keys.runLock(7, 1000, 100),
      keys.runLock(7, 1001, 100),
    ]);
  });

  it('reads a run that moved during the erasure again, and ends it at its new seq', async () => {
    // Prepare
    dbMock
      .on(BatchGetCommand)
      .resolvesOnce({
        Responses: {
          [TABLE]: [
            {
              ...keys.run(7, 4242),
              client_id: 7,
              id: 4242,
              journey_id: 1000,
              contact_id: 100,
              seq: 2,
              status: 'active',
            },
          ],
        },
      })
      .resolves({
        Responses: {
          [TABLE]: [
            {
              ...keys.run(7, 4242),
              client_id: 7,
              id: 4242,
              journey_id: 1000,
              contact_id: 100,
              seq: 3,
              status: 'active',
            },
          ],
        },
      });
    dbMock
      .on(UpdateCommand)
      .rejectsOnce(new ConditionalCheckFailedException({ message: 'moved', $metadata: {} }))
      .resolves({});
    dbMock.on(DeleteCommand).resolves({});
    const store = new DynamoRunStore(db, TABLE);

    // Act
    const erased = await store.eraseRuns(7, [4242], LATER);

    // Assess
    expect(erased).toEqual({ runs: 1, ended: 1 });
    expect(dbMock.commandCalls(UpdateCommand)[1]!.args[0].input.ExpressionAttributeValues).toMatchObject({ ':s': 3 });
  });
});

describe('DynamoErasureStore: an erased contact’s journey runs', () => {
  it('lists the runs of the contact’s history (gsi2 RUN#) and ends them in its scrub', async () => {
    // Prepare
    const { DynamoErasureStore } = await import('../../../../shared/adapters/dynamo/erasure-store.js');
    dbMock
      .on(QueryCommand)
      .resolves({ Items: [{ ...keys.run(7, 4242), gsi2pk: 'CONTACT#7#100', gsi2sk: `RUN#${T0}#x` }] });
    dbMock.on(BatchGetCommand).resolves({
      Responses: {
        [TABLE]: [
          { ...keys.run(7, 4242), client_id: 7, id: 4242, journey_id: 1000, contact_id: 100, seq: 2, status: 'active' },
        ],
      },
    });
    dbMock.on(UpdateCommand).resolves({});
    dbMock.on(DeleteCommand).resolves({});
    const erasure = new DynamoErasureStore(db, TABLE);

    // Act
    const history = await erasure.history(7, 100);
    await erasure.scrubHistory(7, 'a@example.com', history, LATER);

    // Assess
    expect(history).toEqual({ events: [], executions: [], sentEmails: [], webhookMessages: [], runs: [4242] });
    expect(dbMock.commandCalls(UpdateCommand).map((c) => c.args[0].input.Key)).toEqual([keys.run(7, 4242)]);
    expect(dbMock.commandCalls(DeleteCommand).map((c) => c.args[0].input.Key)).toEqual([keys.runLock(7, 1000, 100)]);
  });
});

describe('advance-runs over the DynamoDB adapter: the request budget', () => {
  const WAITS = definitionOf([
    { id: 'start', type: 'wait', minutes: 10, next: 'next_wait' },
    { id: 'next_wait', type: 'wait', minutes: 10, next: null },
  ]);

  /**
   * A table holding these items, each BatchGetItem answered with those of its keys that exist. Every test uses a
   * journey of its own: the container's version cache (per document client) outlives a test.
   */
  async function tableWith(journeyId: number, versions: [number, ReturnType<typeof definitionOf>][], live = 1) {
    const { advanceRun } = await import('../../../../shared/domain/runs/advance-run.js');
    const { RecordingQueue, RecordingScheduler } = await import('../../domain/engine/engine-harness.js');
    const { indexedOf, indexOf } = await import('../../domain/runs/run-fixtures.js');
    const items = new Map<string, Record<string, unknown>>();
    const put = (item: Record<string, unknown>) => items.set(`${item['pk']}\u0000${item['sk']}`, item);
    for (const [v, definition] of versions)
      put({ ...keys.journeyVersion(7, journeyId, v), ...versionOf(definition, v), journey_id: journeyId });
    put({ ...keys.journeyIndex(7), ...indexOf(indexedOf(versions[0]![1], { id: journeyId, live_version: live })) });
    put({ ...keys.contact(7, 100), id: 100, client_id: 7, email: 'a@example.com', tags: [], custom_fields: {} });
    put(runItem(runRecord({ id: 99_000 + journeyId, journey_id: journeyId })));
    dbMock.on(BatchGetCommand).callsFake((input: { RequestItems: Record<string, { Keys: ItemKeyOf[] }> }) => ({
      Responses: {
        [TABLE]: input.RequestItems[TABLE]!.Keys.flatMap((k) => items.get(`${k.pk}\u0000${k.sk}`) ?? []),
      },
    }));
    dbMock
      .on(TransactWriteCommand)
      .callsFake((input: { TransactItems: { Put?: { Item: Record<string, unknown> } }[] }) => {
        put(input.TransactItems[0]!.Put!.Item);
        return {};
      });
    const queue = new RecordingQueue();
    const clock = { current: new Date(T0), now: () => clock.current };
    const deps = {
      runs: new DynamoRunStore(db, TABLE, new ConfigCache(30_000)),
      contacts: { customFieldIds: async () => new Map<string, number>() },
      clock,
      queue,
      scheduler: new RecordingScheduler(),
    };
    const asked = () =>
      dbMock.commandCalls(BatchGetCommand).map((c) => c.args[0].input.RequestItems![TABLE]!.Keys as ItemKeyOf[]);
    return { advance: (m: RunMessage) => advanceRun(deps, m), queue, clock, asked, runId: 99_000 + journeyId };
  }

  it('moves a run in exactly 1 BatchGetItem + 1 TransactWriteItems on a cold container: the version comes with the run', async () => {
    // Prepare
    const t = await tableWith(1001, [[1, WAITS]]);

    // Act
    await t.advance({ client_id: 7, run_id: t.runId, seq: 1, contact_id: 100, journey_id: 1001, version: 1 });

    // Assess
    expect(dbMock.commandCalls(BatchGetCommand)).toHaveLength(1);
    expect(dbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
    expect(dbMock.calls()).toHaveLength(2);
    expect(t.asked()[0]).toContainEqual(keys.journeyVersion(7, 1001, 1));
    expect(t.queue.sent.map((s) => s.message)).toEqual([
      { client_id: 7, run_id: t.runId, seq: 2, contact_id: 100, journey_id: 1001, version: 1 },
    ]);
  });

  it('moves it again in 1 + 1 with the version and the configuration cached: the read is the run and its contact', async () => {
    // Prepare
    const t = await tableWith(1002, [[1, WAITS]]);
    await t.advance({ client_id: 7, run_id: t.runId, seq: 1, contact_id: 100, journey_id: 1002, version: 1 });
    t.clock.current = new Date('2026-01-15T10:10:00.000Z');
    dbMock.resetHistory();

    // Act
    await t.advance(t.queue.sent[0]!.message as RunMessage);

    // Assess
    expect(dbMock.calls()).toHaveLength(2);
    expect(t.asked()).toEqual([[keys.run(7, t.runId), keys.contact(7, 100)]]);
    expect(dbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('reads a version published between the dispatch and the delivery in one BatchGetItem more, and only that one', async () => {
    // Prepare
    const withExit = definitionOf([
      { id: 'start', type: 'wait', minutes: 10, next: 'bye' },
      { id: 'bye', type: 'exit' },
    ]);
    const t = await tableWith(
      1003,
      [
        [1, WAITS],
        [2, withExit],
      ],
      2,
    );

    // Act: the message was sent while version 1 was live.
    await t.advance({ client_id: 7, run_id: t.runId, seq: 1, contact_id: 100, journey_id: 1003, version: 1 });

    // Assess
    expect(t.asked()).toHaveLength(2);
    expect(t.asked()[0]).toContainEqual(keys.journeyVersion(7, 1003, 1));
    expect(t.asked()[1]).toEqual([keys.journeyVersion(7, 1003, 2)]);
    expect(dbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
    expect(t.queue.sent[0]!.message).toMatchObject({ seq: 2, journey_id: 1003, version: 2 });
  });

  it('reads the version in a request of its own when the message does not name it (a cold container)', async () => {
    // Prepare
    const t = await tableWith(1004, [[1, WAITS]]);

    // Act
    await t.advance({ client_id: 7, run_id: t.runId, seq: 1, contact_id: 100 });

    // Assess
    expect(t.asked()).toHaveLength(2);
    expect(t.asked()[1]).toEqual([keys.journeyVersion(7, 1004, 1)]);
    expect(dbMock.calls()).toHaveLength(3);
  });
});
