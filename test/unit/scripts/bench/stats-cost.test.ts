import { describe, expect, it } from 'vitest';
import {
  addCapacity,
  batchesOf,
  capacityOf,
  itemBytes,
  meanCost,
  noCapacity,
  projectionCost,
  ruleCapacity,
  transactionsOf,
  writerMeets,
  writeUnits,
} from '../../../../scripts/bench/stats-cost.js';

describe('itemBytes (DynamoDB item size rules)', () => {
  it('counts attribute names and values: strings in UTF-8 bytes, numbers 1 byte per two significant digits plus 1', () => {
    expect(itemBytes({ pk: 'STATS#7#3' })).toBe(2 + 9);
    expect(itemBytes({ n: 1 })).toBe(1 + 2);
    expect(itemBytes({ n: 12345 })).toBe(1 + 4);
    expect(itemBytes({ n: 1000 })).toBe(1 + 2); // trailing zeros trimmed
    expect(itemBytes({ n: -0.25 })).toBe(1 + 2);
    expect(itemBytes({ é: 'ü' })).toBe(2 + 2);
  });

  it('counts a boolean or null 1 byte, a map or list 3 bytes plus 1 per element, a set its elements', () => {
    expect(itemBytes({ b: true, z: null })).toBe(2 + 2);
    expect(itemBytes({ l: ['ab', 1] })).toBe(1 + 3 + (1 + 2) + (1 + 2));
    expect(itemBytes({ m: { k: 'v' } })).toBe(1 + 3 + (1 + 1 + 1));
    expect(itemBytes({ s: new Set(['a', 'bc']) })).toBe(1 + 3);
  });

  it('sizes a day-counter row well under 1 KB', () => {
    const row = {
      pk: 'STATS#12#5',
      sk: '2026-11-26#W0003',
      sent: 1,
      workflow_id: 3,
      day: '2026-11-26',
      expires_at: 1_799_000_000,
    };
    expect(itemBytes(row)).toBeLessThan(100);
  });
});

describe('writeUnits', () => {
  it('is 1 per started KB, at least 1, doubled in a transaction', () => {
    expect(writeUnits(0, false)).toBe(1);
    expect(writeUnits(77, false)).toBe(1);
    expect(writeUnits(77, true)).toBe(2);
    expect(writeUnits(1024, true)).toBe(2);
    expect(writeUnits(1025, false)).toBe(2);
    expect(writeUnits(1025, true)).toBe(4);
  });
});

describe('ruleCapacity', () => {
  it('bills each item by the larger of its images and counts the counter rows apart', () => {
    const big = { pk: 'SENT#1#x', sk: 'SENT', body: 'x'.repeat(3000) };
    const counter = { pk: 'STATS#1#0', sk: '2026-11-26#W0003', sent: 1 };
    const capacity = ruleCapacity([
      { before: big, after: { pk: 'SENT#1#x', sk: 'SENT', status: 2 }, transactional: true, counter: false }, // 3 KB before
      { before: undefined, after: counter, transactional: true, counter: true }, // created by ADD
      { before: undefined, after: undefined, transactional: false, counter: false }, // a delete of nothing
    ]);
    expect(capacity).toEqual({ ruleWrite: 6 + 2 + 1, counterItems: 1, counterWrite: 2, counterRequests: 1 });
    expect(ruleCapacity([{ before: undefined, after: big, transactional: false, counter: false }])).toMatchObject({
      counterItems: 0,
      counterRequests: 0,
    });
  });
});

describe('capacityOf and addCapacity', () => {
  it('sums a response’s CapacityUnits as reads or writes by its command', () => {
    expect(capacityOf('QueryCommand', { CapacityUnits: 0.5 })).toEqual({ read: 0.5, write: 0 });
    expect(capacityOf('TransactWriteItemsCommand', [{ CapacityUnits: 20 }, { CapacityUnits: 2 }])).toEqual({
      read: 0,
      write: 22,
    });
    expect(capacityOf('PutItemCommand', undefined)).toEqual({ read: 0, write: 0 });
    const total = addCapacity(noCapacity(), { read: 1, ruleWrite: 2 });
    expect(addCapacity(total, { write: 3, ruleWrite: 2, counterItems: 1 })).toEqual({
      read: 1,
      write: 3,
      ruleWrite: 4,
      counterItems: 1,
      counterWrite: 0,
      counterRequests: 0,
    });
  });
});

describe('meanCost and writerMeets', () => {
  const sample = (requests: number, ruleWrite: number, counterItems = 0) => ({
    requests,
    capacity: {
      ...noCapacity(),
      ruleWrite,
      counterItems,
      counterWrite: counterItems * 2,
      counterRequests: counterItems > 0 ? 1 : 0,
    },
  });

  it('averages the samples of a fact', () => {
    expect(meanCost([sample(4, 12, 2), sample(4, 10, 2)])).toMatchObject({
      requests: 4,
      wcu: 11,
      counterItems: 2,
      counterWcu: 4,
      counterRequests: 1,
      samples: 2,
    });
  });

  it('meets only when the operation wrote no counter row, and never without a sample', () => {
    expect(writerMeets(meanCost([sample(3, 4), sample(3, 5)]))).toBe(true);
    expect(writerMeets(meanCost([sample(3, 4), sample(3, 6, 1)]))).toBe(false);
    expect(writerMeets(meanCost([]))).toBe(false);
  });
});

describe('batchesOf', () => {
  const at = (...times: number[]) => times.map((t) => ({ at: t }));

  it('closes a batch when it is full or when the window since its first record has passed', () => {
    expect(batchesOf(at(0, 1, 2, 3, 4), 2, 10_000).map((b) => b.length)).toEqual([2, 2, 1]);
    expect(batchesOf(at(0, 9_999, 10_000, 25_000), 1000, 10_000).map((b) => b.map((r) => r.at))).toEqual([
      [0, 9_999],
      [10_000],
      [25_000],
    ]);
  });

  it('batches in stream order whatever order the records came in', () => {
    expect(batchesOf(at(20_000, 0, 5), 1000, 10_000).map((b) => b.map((r) => r.at))).toEqual([[0, 5], [20_000]]);
  });
});

describe('transactionsOf and projectionCost', () => {
  const record = (fact: string, ...rows: string[]) => ({ fact, at: 0, rows });
  const bytes = () => 120;

  it('sums a batch per row: one transaction, the position and each row once', () => {
    const batch = [
      record('event processed', '1#d#Etrial', '1#d#W3'),
      record('execution: sent', '1#d#W3'),
      record('status log: delivered', '1#d#W3'),
      record('event processed', '1#d#Etrial', '1#d#W3'),
    ];
    const transactions = transactionsOf(batch, bytes, 60);
    expect(transactions).toHaveLength(1);
    expect(transactions[0]!.itemBytes).toEqual([60, 120, 120]);
    const cost = projectionCost(transactions);
    expect(cost).toMatchObject({ facts: 4, transactions: 1, items: 3, wcu: 6, wcuPerFact: 1.5, meets: false });
    expect(cost.byFact['event processed']).toEqual({ facts: 2, wcu: 3, wcuPerFact: 1.5 });
  });

  it('meets 1 WCU a fact once enough facts share the rows, and misses it on a trickle', () => {
    const many = Array.from({ length: 12 }, () => record('status log: delivered', '1#d#W3'));
    expect(projectionCost(transactionsOf(many, bytes, 60))).toMatchObject({ wcu: 4, wcuPerFact: 0.33, meets: true });
    const trickle = many.flatMap((r) => transactionsOf([r], bytes, 60));
    expect(projectionCost(trickle)).toMatchObject({ transactions: 12, wcu: 48, wcuPerFact: 4, meets: false });
  });

  it('cuts at record boundaries so no transaction passes 99 rows, and prices a row over 1 KB at 4', () => {
    const batch = Array.from({ length: 150 }, (_, i) => record('event processed', `1#d#E${i}`));
    expect(transactionsOf(batch, bytes, 60).map((t) => t.itemBytes.length)).toEqual([100, 52]);
    expect(projectionCost(transactionsOf([record('x', 'big')], () => 1500, 60)).wcu).toBe(2 + 4);
  });

  it('never meets without a fact', () => {
    expect(projectionCost([]).meets).toBe(false);
  });
});
