import { describe, expect, it } from 'vitest';
import {
  costTable,
  gbSeconds,
  INDEX_ENTRY_OVERHEAD_BYTES,
  indexEntryBytes,
  indexWriteUnits,
  itemWriteCost,
  readUnits,
  type IndexDefinition,
  type MeasuredUse,
} from '../../../../scripts/bench/cost-model.js';
import { itemBytes } from '../../../../scripts/bench/stats-cost.js';
import { costOf, PRICES } from '../../../../scripts/bench/prices.js';

const TABLE = { partitionKey: 'pk', sortKey: 'sk' };
const ALL: IndexDefinition = { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: 'ALL' };
const KEYS: IndexDefinition = { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk', projection: 'KEYS_ONLY' };

/** An item of about `bytes` bytes (a padding attribute `p`). */
const sized = (base: Record<string, unknown>, bytes: number) => ({
  ...base,
  p: 'x'.repeat(bytes - itemBytes(base) - 1),
});

describe('itemWriteCost (the table: 1 unit per started KB of the larger image, doubled in a transaction)', () => {
  it('charges a new small item 1 unit, 2 in a transaction', () => {
    const after = { pk: 'A', sk: 'B' };
    expect(itemWriteCost(undefined, after, false, [], TABLE).table).toBe(1);
    expect(itemWriteCost(undefined, after, true, [], TABLE).table).toBe(2);
  });

  it('rounds up per started KB, on the larger of the two images', () => {
    const small = { pk: 'A', sk: 'B', n: 1 };
    const big = sized({ pk: 'A', sk: 'B' }, 5 * 1024);
    expect(itemBytes(big)).toBe(5 * 1024);
    expect(itemWriteCost(small, big, false, [], TABLE).table).toBe(5);
    expect(itemWriteCost(big, small, false, [], TABLE).table).toBe(5);
    expect(itemWriteCost(undefined, sized({ pk: 'A', sk: 'B' }, 5 * 1024 + 1), false, [], TABLE).table).toBe(6);
    expect(itemWriteCost(undefined, big, true, [], TABLE).table).toBe(10);
  });

  it('charges a write that changed nothing (a failed condition) the item it met, 1 at least', () => {
    const item = sized({ pk: 'A', sk: 'B' }, 1500);
    expect(itemWriteCost(item, item, false, [ALL, KEYS], TABLE)).toEqual({ table: 2, indexes: { gsi1: 0, gsi2: 0 } });
    expect(itemWriteCost(undefined, undefined, false, [], TABLE).table).toBe(1);
  });
});

describe('indexWriteUnits (GSI rules)', () => {
  const base = { pk: 'A', sk: 'B', gsi1pk: 'X', gsi1sk: '1', gsi2pk: 'Y', gsi2sk: '2', note: 'a' };

  it('costs nothing for an item outside the (sparse) index, before and after', () => {
    const item = { pk: 'A', sk: 'B', note: 'a' };
    expect(indexWriteUnits(undefined, item, ALL, TABLE)).toBe(0);
    // Half a key is no entry either.
    expect(indexWriteUnits(undefined, { ...item, gsi1pk: 'X' }, ALL, TABLE)).toBe(0);
  });

  it('writes one entry for an item entering the index, deletes one for an item leaving it', () => {
    expect(indexWriteUnits(undefined, base, ALL, TABLE)).toBe(1);
    const { gsi1pk: _pk, gsi1sk: _sk, ...left } = base;
    expect(indexWriteUnits(base, left, ALL, TABLE)).toBe(1);
    expect(indexWriteUnits(base, undefined, ALL, TABLE)).toBe(1);
  });

  it('takes two writes (delete and put) when the index key changes', () => {
    expect(indexWriteUnits(base, { ...base, gsi1sk: '9' }, ALL, TABLE)).toBe(2);
    expect(indexWriteUnits(base, { ...base, gsi2pk: 'Z' }, KEYS, TABLE)).toBe(2);
  });

  it('writes an ALL index for any change of the item, a KEYS_ONLY index only for its keys', () => {
    const changed = { ...base, note: 'b' };
    expect(indexWriteUnits(base, changed, ALL, TABLE)).toBe(1);
    expect(indexWriteUnits(base, changed, KEYS, TABLE)).toBe(0);
    expect(indexWriteUnits(base, { ...base }, ALL, TABLE)).toBe(0);
  });

  it('sizes an entry by what the index projects plus 100 bytes, and is not doubled in a transaction', () => {
    const big = sized(base, 3000);
    expect(indexEntryBytes(big, ALL, TABLE)).toBe(3000 + INDEX_ENTRY_OVERHEAD_BYTES);
    const keysOnly = { pk: 'A', sk: 'B', gsi2pk: 'Y', gsi2sk: '2' };
    expect(indexEntryBytes(big, KEYS, TABLE)).toBe(itemBytes(keysOnly) + INDEX_ENTRY_OVERHEAD_BYTES);
    // 3,000 bytes: 3 units, doubled in the transaction; its ALL entry is 3,100 bytes, past 3 KB: 4 units, not doubled.
    expect(itemWriteCost(undefined, big, true, [ALL, KEYS], TABLE)).toEqual({
      table: 6,
      indexes: { gsi1: 4, gsi2: 1 },
    });
    // 950 bytes of item + 100 of overhead: 2 units in the index, 1 in the table.
    expect(itemWriteCost(undefined, sized(base, 950), false, [ALL], TABLE)).toEqual({
      table: 1,
      indexes: { gsi1: 2 },
    });
  });

  it('sees a change inside a set or a map, not a reordering of a map', () => {
    const withSet = { ...base, tags: new Set(['a', 'b']) };
    expect(indexWriteUnits(withSet, { ...base, tags: new Set(['b', 'a']) }, ALL, TABLE)).toBe(0);
    expect(indexWriteUnits(withSet, { ...base, tags: new Set(['a', 'c']) }, ALL, TABLE)).toBe(1);
    expect(indexWriteUnits({ ...base, m: { a: 1, b: 2 } }, { ...base, m: { b: 2, a: 1 } }, ALL, TABLE)).toBe(0);
    expect(indexWriteUnits({ ...base, m: { a: 1 } }, { ...base, m: { a: 2 } }, ALL, TABLE)).toBe(1);
  });
});

describe('readUnits (4 KB blocks; eventually consistent half; transactional double)', () => {
  it('rounds up per started 4 KB', () => {
    expect(readUnits(1, 'strong')).toBe(1);
    expect(readUnits(4096, 'strong')).toBe(1);
    expect(readUnits(4097, 'strong')).toBe(2);
    expect(readUnits(0, 'strong')).toBe(1);
  });

  it('halves an eventually consistent read and doubles a transactional one', () => {
    expect(readUnits(3500, 'eventual')).toBe(0.5);
    expect(readUnits(8192, 'eventual')).toBe(1);
    expect(readUnits(9000, 'eventual')).toBe(1.5);
    expect(readUnits(3500, 'transactional')).toBe(2);
  });
});

describe('gbSeconds (duration rounded up to the ms × memory)', () => {
  it('bills 1 ms at least and rounds up', () => {
    expect(gbSeconds(0.2, 1024)).toBeCloseTo(0.001, 12);
    expect(gbSeconds(100.2, 512)).toBeCloseTo(0.101 * 0.5, 12);
    expect(gbSeconds(1000, 256)).toBeCloseTo(0.25, 12);
  });
});

describe('costTable', () => {
  const use: MeasuredUse = {
    emails: 200,
    dynamoWriteTable: 4000,
    dynamoWriteIndexes: 600,
    dynamoRead: 1000,
    streamRecords: 2000,
    lambdaRequests: 1000,
    lambdaGbSeconds: 20,
    sqsRequests: 1200,
    schedulerInvocations: 0,
    apiRequests: 200,
    snsPublishes: 400,
    sesEmails: 200,
  };

  it('scales each quantity to 1,000 e-mails and prices it', () => {
    const table = costTable(use);
    const row = (resource: string) => table.rows.find((r) => r.resource.startsWith(resource))!;
    expect(row('DynamoDB write request units, table').quantity).toBe(20_000);
    expect(row('DynamoDB write request units, table').cost).toBeCloseTo(20_000 * 0.625e-6, 12);
    expect(row('DynamoDB write request units, indexes').quantity).toBe(3000);
    expect(row('DynamoDB read request units').cost).toBeCloseTo(5000 * 0.125e-6, 12);
    expect(row('Lambda GB-seconds').cost).toBeCloseTo(100 * 0.0000133334, 12);
    expect(row('SQS requests').cost).toBeCloseTo(6000 * 0.4e-6, 12);
    expect(row('API Gateway').cost).toBeCloseTo(1000 * 1e-6, 12);
    expect(row('SNS publishes').cost).toBeCloseTo(2000 * 0.5e-6, 12);
    expect(row('SES e-mails')).toMatchObject({ quantity: 1000 });
    expect(row('SES e-mails').cost).toBeCloseTo(0.1, 12);
  });

  it('prices the stream reads of Lambda triggers at nothing, and shows them', () => {
    const row = costTable(use).rows.find((r) => r.resource.startsWith('DynamoDB Streams'))!;
    expect(row.quantity).toBe(10_000);
    expect(row.cost).toBe(0);
  });

  it('sums the overhead apart from SES and gives its ratio to SES', () => {
    const table = costTable(use);
    const expected =
      20_000 * 0.625e-6 +
      3000 * 0.625e-6 +
      5000 * 0.125e-6 +
      5000 * 0.2e-6 +
      100 * 0.0000133334 +
      6000 * 0.4e-6 +
      1000 * 1e-6 +
      2000 * 0.5e-6;
    expect(table.overhead).toBeCloseTo(expected, 12);
    expect(table.ses).toBeCloseTo(0.1, 12);
    expect(table.total).toBeCloseTo(expected + 0.1, 12);
    expect(table.ratio).toBeCloseTo(expected / 0.1, 9);
  });

  it('refuses a run without e-mails', () => {
    expect(() => costTable({ ...use, emails: 0 })).toThrow();
  });
});

describe('prices', () => {
  it('name a source page and a date for every price', () => {
    for (const price of Object.values(PRICES)) {
      expect(price.source).toMatch(/^https:\/\/aws\.amazon\.com\//);
      expect(price.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(price.usd).toBeGreaterThan(0);
    }
  });

  it('price SES at $0.10 per 1,000 e-mails', () => {
    expect(costOf(1000, PRICES.sesEmail)).toBeCloseTo(0.1, 12);
    expect(costOf(1_000_000, PRICES.dynamoWrite)).toBeCloseTo(0.625, 12);
  });
});
