import { describe, expect, it } from 'vitest';
import { QUOTA_SHARD_COUNT, quotaShardOf, shareOf } from '../../../../shared/domain/executions/quota-shards.js';

describe('quota shards', () => {
  it.each([10_000, 10_007, 300_001, 12_345])('gives shares that add up to exactly the limit (%i)', (limit) => {
    const shares = Array.from({ length: QUOTA_SHARD_COUNT }, (_, shard) => shareOf(limit, shard, QUOTA_SHARD_COUNT));
    expect(shares.reduce((a, b) => a + b, 0)).toBe(limit);
    expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
  });

  it('keeps one counter item below the sharding limits, with the whole limit', () => {
    expect(quotaShardOf(123, { dayLimit: 9_999, monthLimit: 299_999 })).toEqual({
      shard: 0,
      shards: 1,
      dayShare: 9_999,
      monthShare: 299_999,
    });
  });

  it('spreads by execution id above them', () => {
    expect(quotaShardOf(13, { dayLimit: 10_003, monthLimit: 300_000 })).toEqual({
      shard: 5,
      shards: 8,
      dayShare: 1_250,
      monthShare: 37_500,
    });
  });
});
