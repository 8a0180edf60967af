import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoStatsStore } from '../../../../shared/adapters/dynamo/stats-store.js';
import { zeroCounts } from '../../../../shared/domain/stats/stats-counters.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);

beforeEach(() => dbMock.reset());

describe('DynamoStatsStore.read', () => {
  it('reads a client with one Query of its partition, and reads rows and event types back', async () => {
    // Prepare
    dbMock.on(QueryCommand).resolves({
      Items: [
        { pk: 'STATS#7#0', sk: '2026-01-15#E#signup', day: '2026-01-15', event_type: 'signup', received: 2 },
        { pk: 'STATS#7#0', sk: '2026-01-15#W0001', day: '2026-01-15', workflow_id: 1, sent: 3 },
      ],
    });

    // Act
    const rows = await new DynamoStatsStore(db, 'tbl').read(7, '2026-01-01', '2026-03-31');

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

    const all = await store.read(7, '2026-01-01', '2026-03-31');
    const one = await store.read(7, '2026-01-01', '2026-03-31', 1);

    expect(all.events).toEqual([
      { day: '2026-01-15', type: 'signup', received: 2 },
      { day: '2026-01-15', type: 'signup', received: 3 },
    ]);
    expect(all.workflows[0]!.counts.executions).toBe(3);
    expect(one.events.filter((e) => e.received === 3)).toEqual([]);
  });
});
