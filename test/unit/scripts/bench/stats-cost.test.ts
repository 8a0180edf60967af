import { describe, expect, it } from 'vitest';
import {
  addCapacity,
  capacityOf,
  itemBytes,
  meanCost,
  noCapacity,
  ruleCapacity,
  verdictOf,
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
    expect(capacity).toEqual({ ruleWrite: 6 + 2 + 1, counterItems: 1, counterWrite: 2 });
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
    });
  });
});

describe('meanCost and verdictOf', () => {
  const sample = (requests: number, ruleWrite: number, counterItems = 0) => ({
    requests,
    capacity: { ...noCapacity(), ruleWrite, counterItems, counterWrite: counterItems * 2 },
  });

  it('averages the samples of a fact', () => {
    expect(meanCost([sample(4, 12, 2), sample(4, 10, 2)])).toMatchObject({
      requests: 4,
      wcu: 11,
      counterItems: 2,
      counterWcu: 4,
      samples: 2,
    });
  });

  it('meets 0 extra requests and misses ≤ 1 extra WCU when a counter rides in the transaction (2 WCU)', () => {
    const verdict = verdictOf({ with: meanCost([sample(2, 4, 1)]), without: meanCost([sample(2, 2)]) });
    expect(verdict).toEqual({ extraRequests: 0, extraWcu: 2, requestsMet: true, wcuMet: false });
  });

  it('meets both targets when counting adds one standard write and no request', () => {
    expect(verdictOf({ with: meanCost([sample(3, 5)]), without: meanCost([sample(3, 4)]) })).toMatchObject({
      requestsMet: true,
      wcuMet: true,
    });
    expect(verdictOf({ with: meanCost([sample(4, 5)]), without: meanCost([sample(3, 4)]) })).toMatchObject({
      extraRequests: 1,
      requestsMet: false,
    });
  });
});
