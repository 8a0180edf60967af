import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoJourneyStore } from '../../../../shared/adapters/dynamo/journey-store.js';
import type { JourneyDefinition } from '../../../../shared/domain/journeys/definition/types.js';
import type {
  IndexedJourney,
  JourneyRecord,
  JourneyVersionRecord,
} from '../../../../shared/domain/journeys/journey-records.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const TABLE = 'tbl';
const AT = '2026-11-28T10:00:00.000Z';
const LATER = '2026-11-28T11:00:00.000Z';

const HEAD_KEY = { pk: 'CLIENT#7', sk: 'JOURNEY#001000' };
const COUNT_KEY = { pk: 'CLIENT#7', sk: 'JOURNEYS' };
const INDEX_KEY = { pk: 'CLIENT#7', sk: 'JOURNEYINDEX' };

const definition: JourneyDefinition = {
  trigger: { event: 'cart_abandoned', key: 'cart_id', reentry: { mode: 'always' } },
  entry: 'wait_checkout',
  steps: [
    {
      id: 'wait_checkout',
      type: 'wait_for_event',
      event: 'checkout_completed',
      match_key: true,
      timeout_minutes: 240,
      on_event: null,
      on_timeout: 'remind',
    },
    { id: 'remind', type: 'send', template_id: 1001, send_time: { mode: 0 }, next: null },
  ],
  settings: { category: 'marketing', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
};
const draft: Omit<JourneyRecord, 'id' | 'client_id'> = {
  name: 'Cart',
  status: 'draft',
  draft: definition as unknown as Record<string, unknown>,
  draft_version: 1,
  created_at: AT,
  updated_at: AT,
};
const journey: JourneyRecord = { ...draft, id: 1000, client_id: 7 };
const version: JourneyVersionRecord = {
  client_id: 7,
  journey_id: 1000,
  version: 1,
  definition,
  moves: {},
  published_at: LATER,
};
const entry: IndexedJourney = {
  id: 1000,
  name: 'Cart',
  status: 'live',
  live_version: 1,
  trigger: definition.trigger,
  entry: 'wait_checkout',
  settings: definition.settings,
  awaited_events: ['checkout_completed'],
  templates_in_use: [1001],
};

const cancelled = (codes: string[]) =>
  new TransactionCanceledException({
    message: 'cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
const store = () => new DynamoJourneyStore(db, TABLE);
const transaction = (at = 0) => dbMock.commandCalls(TransactWriteCommand)[at]?.args[0].input;

beforeEach(() => dbMock.reset());

describe('DynamoJourneyStore.create', () => {
  it('takes the first id, counts the journey and stores it with its summary in one transaction', async () => {
    // Prepare
    dbMock.on(GetCommand).resolves({});
    dbMock.on(TransactWriteCommand).resolves({});

    // Act
    const created = await store().create(7, draft, 5);

    // Assess
    expect(created).toEqual(journey);
    expect(dbMock.commandCalls(GetCommand)[0]?.args[0].input).toEqual({
      TableName: TABLE,
      Key: COUNT_KEY,
      ConsistentRead: true,
    });
    expect(transaction()).toEqual({
      TransactItems: [
        {
          Update: {
            TableName: TABLE,
            Key: COUNT_KEY,
            UpdateExpression: 'SET next_id = :next, #j = :summary ADD n :one',
            ConditionExpression: 'attribute_not_exists(pk)',
            ExpressionAttributeNames: { '#j': 'j_1000' },
            ExpressionAttributeValues: {
              ':next': 1001,
              ':summary': { id: 1000, name: 'Cart', status: 'draft', updated_at: AT },
              ':one': 1,
            },
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: { ...HEAD_KEY, entity: 'journey', ...journey },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    });
  });

  it('answers limit without writing when the client holds max journeys', async () => {
    // Prepare
    dbMock.on(GetCommand).resolves({ Item: { ...COUNT_KEY, n: 5, next_id: 1007 } });

    // Act
    const created = await store().create(7, draft, 5);

    // Assess
    expect(created).toBe('limit');
    expect(dbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('reads the count again when another create took the id first, and takes the next', async () => {
    // Prepare
    dbMock
      .on(GetCommand)
      .resolvesOnce({ Item: { ...COUNT_KEY, n: 1, next_id: 1001 } })
      .resolves({ Item: { ...COUNT_KEY, n: 2, next_id: 1002 } });
    dbMock
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled(['ConditionalCheckFailed', 'None']))
      .resolves({});

    // Act
    const created = await store().create(7, draft, 5);

    // Assess
    expect(created).toMatchObject({ id: 1002 });
    expect(transaction(1)?.TransactItems?.[0]?.Update?.ConditionExpression).toBe('next_id = :id AND n < :max');
    expect(transaction(1)?.TransactItems?.[0]?.Update?.ExpressionAttributeValues).toMatchObject({
      ':id': 1002,
      ':max': 5,
    });
  });
});

describe('DynamoJourneyStore reads', () => {
  it('reads the journey and the index in one BatchGetItem', async () => {
    // Prepare
    dbMock.on(BatchGetCommand).resolves({
      Responses: {
        [TABLE]: [
          { ...HEAD_KEY, entity: 'journey', ...journey },
          { ...INDEX_KEY, version: 3, journeys: [entry] },
        ],
      },
    });

    // Act
    const read = await store().getWithIndex(7, 1000);

    // Assess
    expect(read).toEqual({ journey, index: { version: 3, journeys: [entry] } });
    expect(dbMock.commandCalls(BatchGetCommand)).toHaveLength(1);
    expect(dbMock.commandCalls(BatchGetCommand)[0]?.args[0].input.RequestItems?.[TABLE]?.Keys).toEqual([
      HEAD_KEY,
      INDEX_KEY,
    ]);
  });

  it('lists the summaries kept on the count item, by id, in one GetItem', async () => {
    // Prepare
    dbMock.on(GetCommand).resolves({
      Item: {
        ...COUNT_KEY,
        n: 2,
        next_id: 1002,
        j_1001: { id: 1001, name: 'B', status: 'draft', updated_at: AT },
        j_1000: { id: 1000, name: 'A', status: 'live', live_version: 2, updated_at: AT },
      },
    });

    // Act
    const count = await store().list(7);

    // Assess
    expect(count).toEqual({
      n: 2,
      next_id: 1002,
      journeys: [
        { id: 1000, name: 'A', status: 'live', live_version: 2, updated_at: AT },
        { id: 1001, name: 'B', status: 'draft', updated_at: AT },
      ],
    });
  });

  it('queries the versions newest first without their definitions', async () => {
    // Prepare
    dbMock.on(QueryCommand).resolves({
      Items: [
        { version: 2, published_at: LATER, published_by: 4 },
        { version: 1, published_at: AT },
      ],
    });

    // Act
    const versions = await store().versions(7, 1000);

    // Assess
    expect(versions).toEqual([
      { version: 2, published_at: LATER, published_by: 4 },
      { version: 1, published_at: AT },
    ]);
    expect(dbMock.commandCalls(QueryCommand)[0]?.args[0].input).toMatchObject({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': 'CLIENT#7', ':prefix': 'JOURNEY#001000#V#' },
      ProjectionExpression: '#v, published_at, published_by',
      ScanIndexForward: false,
    });
  });
});

describe('DynamoJourneyStore.publish', () => {
  it('writes the version, the journey, the index, the summary and the template and segment checks in one transaction', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});
    const published: JourneyRecord = { ...journey, status: 'live', live_version: 1, updated_at: LATER };

    // Act
    const outcome = await store().publish({
      journey: published,
      draftVersion: 1,
      version,
      index: { readVersion: 0, journeys: [entry] },
      templateIds: [1001],
      segmentIds: [4],
      at: LATER,
    });

    // Assess
    expect(outcome).toBe('done');
    expect(transaction()?.TransactItems).toEqual([
      {
        Put: {
          TableName: TABLE,
          Item: { pk: 'CLIENT#7', sk: 'JOURNEY#001000#V#000001', ...version },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: TABLE,
          Key: HEAD_KEY,
          UpdateExpression: 'SET #status = :live, live_version = :v, updated_at = :at',
          ConditionExpression: 'draft_version = :dv AND #status <> :archived',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':live': 'live', ':v': 1, ':at': LATER, ':dv': 1, ':archived': 'archived' },
        },
      },
      {
        Put: {
          TableName: TABLE,
          Item: { ...INDEX_KEY, version: 1, journeys: [entry] },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: TABLE,
          Key: COUNT_KEY,
          UpdateExpression: 'SET #j.#f0 = :f0, #j.#f1 = :f1, #j.#f2 = :f2',
          ExpressionAttributeNames: { '#j': 'j_1000', '#f0': 'status', '#f1': 'live_version', '#f2': 'updated_at' },
          ExpressionAttributeValues: { ':f0': 'live', ':f1': 1, ':f2': LATER },
        },
      },
      {
        ConditionCheck: {
          TableName: TABLE,
          Key: { pk: 'CLIENT#7', sk: 'TEMPLATE#000000001001' },
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleted_at)',
        },
      },
      {
        ConditionCheck: {
          TableName: TABLE,
          Key: { pk: 'CLIENT#7', sk: 'SEGMENT#000004' },
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
    ]);
  });

  it('conditions the index on the version read and writes the settings when disabling a workflow', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});
    const settings = { id: 1, client_id: 7, tone_of_voice: 0, version: 4, created_at: AT, updated_at: LATER };

    // Act
    await store().publish({
      journey: { ...journey, status: 'live', live_version: 1 },
      draftVersion: 1,
      version,
      index: { readVersion: 6, journeys: [entry] },
      templateIds: [],
      segmentIds: [],
      settings: { record: { ...settings, enabled_workflows: [1, 3] }, expectedVersion: 3 },
      at: LATER,
    });

    // Assess
    const items = transaction()?.TransactItems ?? [];
    expect(items[2]?.Put).toMatchObject({
      Item: { ...INDEX_KEY, version: 7 },
      ConditionExpression: '#v = :v',
      ExpressionAttributeValues: { ':v': 6 },
    });
    expect(items[4]?.Put).toEqual({
      TableName: TABLE,
      Item: { pk: 'CLIENT#7', sk: 'SETTINGS', ...settings, enabled_workflows: [1, 3] },
      ConditionExpression: '#v = :v',
      ExpressionAttributeNames: { '#v': 'version' },
      ExpressionAttributeValues: { ':v': 3 },
    });
  });

  it('answers stale when a condition fails (nothing written)', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).rejects(cancelled(['None', 'ConditionalCheckFailed', 'None', 'None']));

    // Act
    const outcome = await store().publish({
      journey,
      draftVersion: 1,
      version,
      index: { readVersion: 0, journeys: [entry] },
      templateIds: [],
      segmentIds: [],
      at: LATER,
    });

    // Assess
    expect(outcome).toBe('stale');
  });
});

describe('DynamoJourneyStore status changes and delete', () => {
  it('archives: status from the state read, summary, the count freed and the index without it', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});

    // Act
    await store().changeStatus({
      journey: { ...journey, status: 'live' },
      from: 'live',
      to: 'archived',
      index: { readVersion: 2, journeys: [] },
      at: LATER,
    });

    // Assess
    expect(transaction()?.TransactItems).toEqual([
      {
        Update: {
          TableName: TABLE,
          Key: HEAD_KEY,
          UpdateExpression: 'SET #status = :to, updated_at = :at',
          ConditionExpression: '#status = :from',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':to': 'archived', ':from': 'live', ':at': LATER },
        },
      },
      {
        Update: {
          TableName: TABLE,
          Key: COUNT_KEY,
          UpdateExpression: 'SET #j.#status = :to, #j.updated_at = :at ADD n :minus',
          ExpressionAttributeNames: { '#j': 'j_1000', '#status': 'status' },
          ExpressionAttributeValues: { ':to': 'archived', ':at': LATER, ':minus': -1 },
        },
      },
      {
        Put: {
          TableName: TABLE,
          Item: { ...INDEX_KEY, version: 3, journeys: [] },
          ConditionExpression: '#v = :v',
          ExpressionAttributeNames: { '#v': 'version' },
          ExpressionAttributeValues: { ':v': 2 },
        },
      },
    ]);
  });

  it('deletes only a draft never published, freeing its count place and summary', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});

    // Act
    const outcome = await store().delete(journey);

    // Assess
    expect(outcome).toBe('done');
    expect(transaction()?.TransactItems).toEqual([
      {
        Delete: {
          TableName: TABLE,
          Key: HEAD_KEY,
          ConditionExpression: '#status = :draft AND attribute_not_exists(live_version)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':draft': 'draft' },
        },
      },
      {
        Update: {
          TableName: TABLE,
          Key: COUNT_KEY,
          UpdateExpression: 'REMOVE #j ADD n :minus',
          ExpressionAttributeNames: { '#j': 'j_1000' },
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
    ]);
  });

  it('saves a draft only at the draft_version read, and not once archived', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).rejects(cancelled(['ConditionalCheckFailed', 'None']));

    // Act
    const outcome = await store().saveDraft(journey, { steps: [] }, 1, LATER);

    // Assess
    expect(outcome).toBe('stale');
    expect(transaction()?.TransactItems?.[0]?.Update).toMatchObject({
      UpdateExpression: 'SET draft = :draft, draft_version = :next, updated_at = :at',
      ConditionExpression: 'draft_version = :dv AND #status <> :archived',
      ExpressionAttributeValues: { ':draft': { steps: [] }, ':next': 2, ':dv': 1 },
    });
  });
});
