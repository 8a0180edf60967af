import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { optional, StatsItems } from '../../../../shared/adapters/dynamo/stats-items.js';
import { DynamoStatsStore } from '../../../../shared/adapters/dynamo/stats-store.js';
import { zeroCounts } from '../../../../shared/domain/stats/stats-counters.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);

beforeEach(() => dbMock.reset());

describe('StatsItems', () => {
  it('adds a fact’s counters and its reason to the workflow’s day row in the shard its spread names (mod 16 for a sharded client), TTL 400 days on', () => {
    const item = new StatsItems('tbl').workflowDay({
      clientId: 7,
      workflowId: 3,
      day: '2026-01-15',
      counts: { skipped: 1, sent: 0 },
      skippedReason: 'contact_unsubscribed',
      spread: 29,
      shards: 16,
    });

    expect(item).toEqual({
      Update: {
        TableName: 'tbl',
        Key: { pk: 'STATS#7#13', sk: '2026-01-15#W0003' },
        UpdateExpression:
          'ADD #a0 :a0, #a1 :a1 SET workflow_id = :workflow, #day = :day, expires_at = if_not_exists(expires_at, :expires)',
        ExpressionAttributeNames: { '#day': 'day', '#a0': 'skipped', '#a1': 'skip:contact_unsubscribed' },
        ExpressionAttributeValues: {
          ':workflow': 3,
          ':day': '2026-01-15',
          ':expires': 1_802_995_200,
          ':a0': 1,
          ':a1': 1,
        },
      },
    });
  });

  it('puts every fact of a client never sharded on its shard 0, whatever its spread', () => {
    const items = new StatsItems('tbl');
    for (const spread of [1, 13, 29, 1_000_003]) {
      expect(
        items.workflowDay({ clientId: 7, workflowId: 3, day: '2026-01-15', counts: { sent: 1 }, spread, shards: 1 })!
          .Update!.Key,
      ).toEqual({
        pk: 'STATS#7#0',
        sk: '2026-01-15#W0003',
      });
      expect(
        items.eventType({ clientId: 7, day: '2026-01-15', type: 'signup', spread, shards: 1 })!.Update!.Key,
      ).toEqual({
        pk: 'STATS#7#0',
        sk: '2026-01-15#E#signup',
      });
    }
  });

  it('counts an event received on the workflow row processing writes anyway, as event:<type>', () => {
    const item = new StatsItems('tbl').workflowDay({
      clientId: 7,
      workflowId: 1,
      day: '2026-01-15',
      counts: { executions: 1 },
      spread: 5,
      shards: 1,
      eventType: 'signup',
    });
    expect(item!.Update).toMatchObject({
      Key: { pk: 'STATS#7#0', sk: '2026-01-15#W0001' },
      UpdateExpression:
        'ADD #a0 :a0, #a1 :a1 SET workflow_id = :workflow, #day = :day, expires_at = if_not_exists(expires_at, :expires)',
      ExpressionAttributeNames: { '#day': 'day', '#a0': 'executions', '#a1': 'event:signup' },
      ExpressionAttributeValues: { ':a0': 1, ':a1': 1 },
    });
  });

  it('adds nothing for a fact that counts nothing, and keeps the retention it is given', () => {
    const items = new StatsItems('tbl', 30);
    expect(
      items.workflowDay({ clientId: 7, workflowId: 3, day: '2026-01-15', counts: { sent: 0 }, spread: 1, shards: 16 }),
    ).toBeUndefined();
    expect(items.eventType({ clientId: 7, day: '2026-01-15', type: 'signup', spread: 18, shards: 16 })).toEqual({
      Update: {
        TableName: 'tbl',
        Key: { pk: 'STATS#7#2', sk: '2026-01-15#E#signup' },
        UpdateExpression:
          'ADD received :one SET event_type = :type, #day = :day, expires_at = if_not_exists(expires_at, :expires)',
        ExpressionAttributeNames: { '#day': 'day' },
        ExpressionAttributeValues: {
          ':one': 1,
          ':type': 'signup',
          ':day': '2026-01-15',
          ':expires': 1_768_435_200 + 30 * 86_400,
        },
      },
    });
  });

  it('builds nothing with counting off (the counters bench), and optional() leaves an absent item out', () => {
    const items = new StatsItems('tbl', 400, { counting: false });
    expect(
      items.workflowDay({ clientId: 7, workflowId: 3, day: '2026-01-15', counts: { sent: 1 }, spread: 1, shards: 1 }),
    ).toBeUndefined();
    expect(items.eventType({ clientId: 7, day: '2026-01-15', type: 'signup', spread: 2, shards: 1 })).toBeUndefined();
    expect(optional(undefined)).toEqual([]);
    const counted = new StatsItems('tbl').workflowDay({
      clientId: 7,
      workflowId: 3,
      day: '2026-01-15',
      counts: { sent: 1 },
      spread: 1,
      shards: 1,
    });
    expect(optional(counted)).toEqual([counted]);
  });
});

describe('DynamoStatsStore.read', () => {
  it('reads a client never sharded with one Query of its shard 0, and reads rows and event types back', async () => {
    // Prepare
    dbMock.on(QueryCommand).resolves({
      Items: [
        { pk: 'STATS#7#0', sk: '2026-01-15#E#signup', day: '2026-01-15', event_type: 'signup', received: 2 },
        { pk: 'STATS#7#0', sk: '2026-01-15#W0001', day: '2026-01-15', workflow_id: 1, sent: 3 },
      ],
    });

    // Act
    const rows = await new DynamoStatsStore(db, 'tbl').read(7, 1, '2026-01-01', '2026-03-31');

    // Assess: the 90 days in one request.
    expect(dbMock.calls()).toHaveLength(1);
    expect(dbMock.commandCalls(QueryCommand)[0]!.args[0].input).toEqual({
      TableName: 'tbl',
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': 'STATS#7#0', ':from': '2026-01-01#', ':to': '2026-03-31#~' },
    });
    expect(rows.workflows.map((r) => r.counts.sent)).toEqual([3]);
    expect(rows.events).toEqual([{ day: '2026-01-15', type: 'signup', received: 2 }]);
  });

  it('reads the events a workflow row counts (event:<type>) with the event-type rows’, and leaves them out of a workflow’s read', async () => {
    dbMock.on(QueryCommand).resolves({
      Items: [
        { pk: 'STATS#7#0', sk: '2026-01-15#E#signup', day: '2026-01-15', event_type: 'signup', received: 2 },
        {
          pk: 'STATS#7#0',
          sk: '2026-01-15#W0001',
          day: '2026-01-15',
          workflow_id: 1,
          executions: 3,
          'event:signup': 3,
        },
      ],
    });
    const store = new DynamoStatsStore(db, 'tbl');

    const all = await store.read(7, 1, '2026-01-01', '2026-03-31');
    const one = await store.read(7, 1, '2026-01-01', '2026-03-31', 1);

    expect(all.events).toEqual([
      { day: '2026-01-15', type: 'signup', received: 2 },
      { day: '2026-01-15', type: 'signup', received: 3 },
    ]);
    expect(all.workflows[0]!.counts.executions).toBe(3);
    expect(one.events.filter((e) => e.received === 3)).toEqual([]);
  });

  it('queries each of a sharded client’s 16 shards once, in one wave, over the days’ sort key range, and reads rows and event types back', async () => {
    // Prepare
    dbMock.on(QueryCommand).callsFake((input: { ExpressionAttributeValues: Record<string, string> }) =>
      input.ExpressionAttributeValues[':pk'] === 'STATS#7#0'
        ? {
            Items: [
              { pk: 'STATS#7#0', sk: '2026-01-15#E#signup', day: '2026-01-15', event_type: 'signup', received: 2 },
              {
                pk: 'STATS#7#0',
                sk: '2026-01-15#W0001',
                day: '2026-01-15',
                workflow_id: 1,
                sent: 3,
                'skip:no_template': 1,
                skipped: 1,
              },
            ],
          }
        : { Items: [] },
    );

    // Act
    const rows = await new DynamoStatsStore(db, 'tbl').read(7, 16, '2026-01-01', '2026-01-31');

    // Assess
    expect(dbMock.commandCalls(QueryCommand).map((c) => c.args[0].input)).toEqual(
      Array.from({ length: 16 }, (_, shard) => ({
        TableName: 'tbl',
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': `STATS#7#${shard}`, ':from': '2026-01-01#', ':to': '2026-01-31#~' },
      })),
    );
    expect(rows).toEqual({
      workflows: [
        {
          day: '2026-01-15',
          workflowId: 1,
          counts: { ...zeroCounts(), sent: 3, skipped: 1 },
          skippedReasons: { no_template: 1 },
          failedReasons: {},
        },
      ],
      events: [{ day: '2026-01-15', type: 'signup', received: 2 }],
    });
  });

  it('keeps one workflow’s rows with a filter on the same queries', async () => {
    dbMock.on(QueryCommand).resolves({ Items: [] });
    await new DynamoStatsStore(db, 'tbl').read(7, 16, '2026-01-01', '2026-01-31', 4);
    expect(dbMock.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      FilterExpression: 'workflow_id = :workflow',
      ExpressionAttributeValues: { ':workflow': 4 },
    });
  });
});
