import { DynamoDBClient, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { batchGetItems } from '../../../../shared/adapters/dynamo/batch-get.js';
import { FakeTable } from './bulk-fake-table.js';
import { FAST_BACKOFF, TABLE } from './bulk-support.js';

const key = (i: number) => ({ pk: 'P', sk: `S#${String(i).padStart(4, '0')}` });

/** A fake table holding items 1..n under `key(i)`. */
function tableWith(n: number): FakeTable {
  const table = new FakeTable();
  for (let i = 1; i <= n; i += 1) table.put({ ...key(i), n: i });
  return table;
}

describe('batchGetItems', () => {
  let table: FakeTable | undefined;
  afterEach(() => table?.restore());

  it('reads every chunk of up to 100 keys in parallel, in one wave', async () => {
    // Prepare
    table = tableWith(250);
    // Act
    const items = await batchGetItems(
      table.db,
      TABLE,
      Array.from({ length: 250 }, (_, i) => key(i + 1)),
    );
    // Assess
    expect(items.map((i) => i['n']).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 250 }, (_, i) => i + 1),
    );
    const sizes = table.mock
      .commandCalls(BatchGetCommand)
      .map((c) => c.args[0].input.RequestItems![TABLE]!.Keys!.length);
    expect(sizes).toEqual([100, 100, 50]);
    expect(table.waves.waves).toBe(1);
  });

  it('asks for each duplicate key once and leaves out keys that hold no item', async () => {
    table = tableWith(2);
    const items = await batchGetItems(table.db, TABLE, [key(1), key(2), key(1), key(3)]);
    expect(items.map((i) => i['n']).sort()).toEqual([1, 2]);
    expect(table.mock.commandCalls(BatchGetCommand)[0]!.args[0].input.RequestItems![TABLE]!.Keys).toEqual([
      key(1),
      key(2),
      key(3),
    ]);
  });

  it('asks again for the keys DynamoDB left unprocessed, and retries throttled calls', async () => {
    table = tableWith(8);
    let calls = 0;
    table.injections.before = () => {
      calls += 1;
      if (calls === 2) throw new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} });
      return calls <= 3 ? 'unprocess-half' : undefined;
    };

    const items = await batchGetItems(
      table.db,
      TABLE,
      Array.from({ length: 8 }, (_, i) => key(i + 1)),
      { backoff: FAST_BACKOFF },
    );

    expect(items).toHaveLength(8);
    const sizes = table.mock
      .commandCalls(BatchGetCommand)
      .map((c) => c.args[0].input.RequestItems![TABLE]!.Keys!.length);
    expect(sizes).toEqual([8, 4, 4, 2]); // half left, a throttled call, the same 4 again (half left), the last 2
  });

  it('fails once the rounds are used up rather than return fewer items than exist', async () => {
    const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
    const dbMock = mockClient(db);
    dbMock
      .on(BatchGetCommand)
      .callsFake((input) => ({ Responses: { [TABLE]: [] }, UnprocessedKeys: input.RequestItems }));

    await expect(batchGetItems(db, TABLE, [key(1), key(2)], { backoff: FAST_BACKOFF })).rejects.toThrow(
      'BatchGetItem left 2 keys unprocessed after 8 attempts',
    );
    expect(dbMock.commandCalls(BatchGetCommand)).toHaveLength(FAST_BACKOFF.attempts);
    dbMock.restore();
  });

  it.each([
    [{}, { ConsistentRead: true }],
    [{ consistentRead: false }, { ConsistentRead: false }],
    [
      { attributes: ['name', 'sk', 'field_id'] },
      {
        ConsistentRead: true,
        ProjectionExpression: '#p0, #p1, #p2, #p3',
        ExpressionAttributeNames: { '#p0': 'pk', '#p1': 'sk', '#p2': 'name', '#p3': 'field_id' },
      },
    ],
  ])('sends options %j as %j', async (options, expected) => {
    table = tableWith(1);
    await batchGetItems(table.db, TABLE, [key(1)], options);
    expect(table.mock.commandCalls(BatchGetCommand)[0]!.args[0].input.RequestItems).toEqual({
      [TABLE]: { Keys: [key(1)], ...expected },
    });
  });

  it('sends nothing for no keys', async () => {
    table = new FakeTable();
    expect(await batchGetItems(table.db, TABLE, [])).toEqual([]);
    expect(table.calls('BatchGetItem')).toBe(0);
  });
});
