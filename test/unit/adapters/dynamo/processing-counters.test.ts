import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoProcessingStore } from '../../../../shared/adapters/dynamo/processing-store.js';
import type { EventRecord } from '../../../../shared/domain/events/event-record.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../../../shared/domain/executions/execution-record.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
beforeEach(() => dbMock.reset());

const AT = '2026-01-15T10:00:00.000Z';
const event = {
  id: 37,
  client_id: 7,
  type: 'signup',
  email: 'ann@example.com',
  auto_create_contact: true,
  ts: AT,
  payload: {},
  mode: 'async',
  queue_status: 'processed',
  retry_count: 0,
  created_at: AT,
  updated_at: AT,
} as unknown as EventRecord;

const execution = (id: number, workflowId: number): ExecutionRecord => ({
  id,
  client_id: 7,
  workflow_id: workflowId,
  contact_id: 42,
  event_id: 37,
  status: EXECUTION_STATUS.queued,
  is_test: false,
  attempt: 1,
  template_id: workflowId,
  priority_score: 50,
  critical: true,
  cap_day: AT.slice(0, 10),
  scheduled_for: AT,
  created_at: AT,
  updated_at: AT,
});

/** The day-counter items of the commit's transaction. */
async function counterItems(commit: Parameters<DynamoProcessingStore['commit']>[0]) {
  dbMock.on(TransactWriteCommand).resolves({});
  expect(await new DynamoProcessingStore(db, 'tbl').commit(commit)).toBe('committed');
  const items = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
  return items.filter((i) => i.Update?.Key?.['pk']?.toString().startsWith('STATS#')).map((i) => i.Update!);
}

describe('DynamoProcessingStore.commit: the day counters', () => {
  it('counts the event on the first workflow row it writes anyway: one counter row for one execution, on shard 0 of a small client', async () => {
    const rows = await counterItems({ event, executions: [execution(100, 1)], statsShards: 1 });

    expect(rows).toHaveLength(1);
    expect(rows[0]!.Key).toEqual({ pk: 'STATS#7#0', sk: '2026-01-15#W0001' });
    expect(Object.values(rows[0]!.ExpressionAttributeNames!)).toEqual(['day', 'executions', 'event:signup']);
  });

  it('counts the event once when it starts several workflows, on a sharded client’s shard event id mod 16', async () => {
    const rows = await counterItems({ event, executions: [execution(101, 2), execution(100, 1)], statsShards: 16 });

    expect(rows.map((r) => r.Key)).toEqual([
      { pk: 'STATS#7#5', sk: '2026-01-15#W0001' },
      { pk: 'STATS#7#5', sk: '2026-01-15#W0002' },
    ]);
    expect(rows.map((r) => Object.values(r.ExpressionAttributeNames!).filter((n) => n.startsWith('event:')))).toEqual([
      ['event:signup'],
      [],
    ]);
  });

  it('gives an event that starts nothing its own event-type row', async () => {
    const rows = await counterItems({ event: { ...event, queue_status: 'failed' }, executions: [], statsShards: 1 });

    expect(rows.map((r) => r.Key)).toEqual([{ pk: 'STATS#7#0', sk: '2026-01-15#E#signup' }]);
  });
});
