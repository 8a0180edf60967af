import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { CostMeter } from '../../../../scripts/bench/cost-meter.js';
import type { IndexDefinition } from '../../../../scripts/bench/cost-model.js';

type Item = Record<string, unknown>;
type Middleware = (
  next: (args: { input: Item }) => Promise<{ output: Item }>,
  context: { commandName: string },
) => (args: { input: Item }) => Promise<{ output: Item }>;

const INDEXES: IndexDefinition[] = [
  { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: 'ALL' },
  { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk', projection: 'KEYS_ONLY' },
];

/**
 * A table in a Map behind a fake document client: the meter's middleware is captured from `middlewareStack.add` and
 * run around a `next` that applies the write (or refuses it), as DynamoDB would, answering `ConsumedCapacity`.
 */
function harness(reported = 1) {
  const table = new Map<string, Item>();
  const keyOf = (key: Item) => `${key['pk']}|${key['sk']}`;
  const imageDb = {
    send: async (command: { input: { Key: Item } }) => ({ Item: table.get(keyOf(command.input.Key)) }),
  } as unknown as DynamoDBDocumentClient;
  let middleware: Middleware | undefined;
  const db = {
    middlewareStack: { add: (m: Middleware) => (middleware = m) },
  } as unknown as DynamoDBDocumentClient;
  const meter = new CostMeter(imageDb, INDEXES, { partitionKey: 'pk', sortKey: 'sk' });
  meter.install(db);
  const run = async (commandName: string, input: Item, apply: () => void | Item) => {
    const next = async (args: { input: Item }) => {
      expect(args.input['ReturnConsumedCapacity']).toBe('INDEXES');
      const answer = apply();
      return { output: { ConsumedCapacity: { CapacityUnits: reported }, ...(answer ?? {}) } };
    };
    return middleware!(next, { commandName })({ input });
  };
  return { table, meter, run, keyOf };
}

describe('CostMeter', () => {
  it('prices a put by the rule: table and the index it enters', async () => {
    const h = harness();
    const item = { pk: 'C#1', sk: 'MSG#1', entity: 'sent', gsi1pk: 'X', gsi1sk: 'Y', body: 'x'.repeat(1500) };
    await h.run('PutItemCommand', { TableName: 't', Item: item }, () => void h.table.set(h.keyOf(item), item));
    expect(h.meter.totals.tableWrite).toBe(2);
    expect(h.meter.totals.indexWrite).toEqual({ gsi1: 2 });
    expect(h.meter.totals.writeByEntity).toEqual({ sent: 2 });
    expect(h.meter.totals.reportedWrite).toBe(1);
  });

  it("doubles a transaction's items, prices its ConditionCheck as a transactional read", async () => {
    const h = harness();
    const checked = { pk: 'C#1', sk: 'LOCK', entity: 'lock' };
    h.table.set(h.keyOf(checked), checked);
    const put = { pk: 'C#1', sk: 'E#1', entity: 'execution', gsi2pk: 'P', gsi2sk: 'S' };
    await h.run(
      'TransactWriteItemsCommand',
      {
        TransactItems: [
          { ConditionCheck: { TableName: 't', Key: { pk: 'C#1', sk: 'LOCK' } } },
          { Put: { TableName: 't', Item: put } },
        ],
      },
      () => void h.table.set(h.keyOf(put), put),
    );
    expect(h.meter.totals.tableWrite).toBe(2);
    expect(h.meter.totals.writeByEntity).toEqual({ 'execution (tx)': 2 });
    expect(h.meter.totals.indexWrite).toEqual({ gsi2: 1 });
    expect(h.meter.totals.checkRead).toBe(2);
  });

  it('bills a write whose condition failed, and rethrows its error', async () => {
    const h = harness();
    const item = { pk: 'C#1', sk: 'X', entity: 'contact', gsi1pk: 'A', gsi1sk: 'B' };
    h.table.set(h.keyOf(item), item);
    const refused = new Error('ConditionalCheckFailedException');
    await expect(
      h.run('UpdateItemCommand', { TableName: 't', Key: { pk: 'C#1', sk: 'X' } }, () => {
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(h.meter.totals.failedWrites).toBe(1);
    expect(h.meter.totals.tableWrite).toBe(1);
    expect(h.meter.totals.indexWrite).toEqual({});
  });

  it('counts every item of a batch write, a delete leaving its index', async () => {
    const h = harness();
    const old = { pk: 'C#1', sk: 'OLD', entity: 'member', gsi1pk: 'A', gsi1sk: 'B' };
    h.table.set(h.keyOf(old), old);
    const fresh = { pk: 'C#1', sk: 'NEW', entity: 'member' };
    await h.run(
      'BatchWriteItemCommand',
      { RequestItems: { t: [{ PutRequest: { Item: fresh } }, { DeleteRequest: { Key: { pk: 'C#1', sk: 'OLD' } } }] } },
      () => {
        h.table.set(h.keyOf(fresh), fresh);
        h.table.delete(h.keyOf(old));
      },
    );
    expect(h.meter.totals.tableWrite).toBe(2);
    expect(h.meter.totals.indexWrite).toEqual({ gsi1: 1 });
  });

  it('takes reads as reported, and checks a whole-item GetItem against the rule', async () => {
    const h = harness(0.5);
    const item = { pk: 'C#1', sk: 'X', n: 1 };
    await h.run('GetItemCommand', { TableName: 't', Key: { pk: 'C#1', sk: 'X' } }, () => ({ Item: item }));
    await h.run('GetItemCommand', { TableName: 't', Key: { pk: 'C#1', sk: 'X' }, ConsistentRead: true }, () => ({
      Item: item,
    }));
    await h.run('QueryCommand', { TableName: 't' }, () => ({ Items: [] }));
    expect(h.meter.totals.reportedRead).toBe(1.5);
    expect(h.meter.totals.readByCommand).toEqual({ GetItem: 1, Query: 0.5 });
    // Eventually consistent: 0.5 by the rule, as reported; strongly consistent: 1 by the rule, 0.5 reported.
    expect(h.meter.totals.getItemCheck).toEqual({ compared: 2, agreed: 1 });
    expect(h.meter.totals.tableWrite).toBe(0);
  });

  it('counts a transaction of one item apart (it costs twice the lone write), not one with a ConditionCheck beside it', async () => {
    // Prepare
    const h = harness();
    const log = { pk: 'SENT#7#a', sk: 'LOG#1', entity: 'sent_email_log' };
    const checked = { pk: 'C#1', sk: 'LOCK', entity: 'lock' };
    h.table.set(h.keyOf(checked), checked);

    // Act
    await h.run('TransactWriteItemsCommand', { TransactItems: [{ Put: { TableName: 't', Item: log } }] }, () => {
      h.table.set(h.keyOf(log), log);
    });
    await h.run(
      'TransactWriteItemsCommand',
      {
        TransactItems: [
          { ConditionCheck: { TableName: 't', Key: { pk: 'C#1', sk: 'LOCK' } } },
          { Put: { TableName: 't', Item: { ...log, sk: 'LOG#2' } } },
        ],
      },
      () => void h.table.set(h.keyOf({ ...log, sk: 'LOG#2' }), { ...log, sk: 'LOG#2' }),
    );

    // Assess
    expect(h.meter.totals.singleItemTransactions).toEqual({ sent_email_log: 1 });
  });

  it('keeps the counter rows and stream positions a function wrote apart, with the largest of them', async () => {
    // Prepare
    const h = harness();
    const row = { pk: 'STATS#7#0', sk: '2026-11-29#W1', sent: 1 };
    const position = { pk: 'STREAMPOS#day-counters#shard-1', sk: 'STREAMPOS', pos: '1'.repeat(40) };
    const other = { pk: 'CONTACT#7#1', sk: 'CONTACT', entity: 'contact' };

    // Act: the projection's transaction inside its invocation, another write outside any
    await h.meter.timed('table stream -> day-counters', () =>
      h.run(
        'TransactWriteItemsCommand',
        { TransactItems: [{ Put: { TableName: 't', Item: position } }, { Put: { TableName: 't', Item: row } }] },
        () => {
          h.table.set(h.keyOf(position), position);
          h.table.set(h.keyOf(row), row);
        },
      ),
    );
    await h.run('PutItemCommand', { TableName: 't', Item: other }, () => void h.table.set(h.keyOf(other), other));

    // Assess
    expect(h.meter.totals.counterWrites).toEqual({
      'table stream -> day-counters': { table: 4, maxBytes: expect.any(Number) },
    });
    expect(h.meter.totals.counterWrites['table stream -> day-counters']!.maxBytes).toBeGreaterThan(60);
    expect(h.meter.totals.tableWrite).toBe(5);
  });

  it("times an invocation less the meter's own image reads inside it, billed to the started millisecond", async () => {
    const h = harness();
    await h.meter.timed('fn', async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    h.meter.recordInvocation('fn', 0.3);
    const use = h.meter.totals.functions['fn']!;
    expect(use.invocations).toBe(2);
    expect(use.billedMs).toBeGreaterThanOrEqual(20 + 1);
    expect(use.billedMs).toBeLessThan(200);
    h.meter.reset();
    expect(h.meter.totals.functions).toEqual({});
  });
});
