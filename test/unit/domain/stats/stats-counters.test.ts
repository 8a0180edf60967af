import { describe, expect, it } from 'vitest';
import {
  quotaShardOf,
  SHARDED_DAY_LIMIT,
  SHARDED_MONTH_LIMIT,
} from '../../../../shared/domain/executions/quota-shards.js';
import {
  clientStatsShardsOf,
  STATS_SHARD_COUNT,
  statsReadShardsOf,
  statsShardOf,
  statsShardsMaxOf,
  statsShardsOf,
} from '../../../../shared/domain/stats/stats-counters.js';

describe('statsShardsOf (sharded only where one client’s day could pass one key’s write limit)', () => {
  it('is 1 below the limits that shard the quota and 16 at or above either', () => {
    expect(statsShardsOf({ dayLimit: SHARDED_DAY_LIMIT - 1, monthLimit: SHARDED_MONTH_LIMIT - 1 })).toBe(1);
    expect(statsShardsOf({ dayLimit: SHARDED_DAY_LIMIT, monthLimit: 1_000 })).toBe(STATS_SHARD_COUNT);
    expect(statsShardsOf({ dayLimit: 100, monthLimit: SHARDED_MONTH_LIMIT })).toBe(STATS_SHARD_COUNT);
    expect(STATS_SHARD_COUNT).toBe(16);
  });

  it('shards exactly where the quota does (one rule for both)', () => {
    for (const limits of [
      { dayLimit: 9_999, monthLimit: 299_999 },
      { dayLimit: 10_000, monthLimit: 0 },
      { dayLimit: 0, monthLimit: 300_000 },
      { dayLimit: 200_000, monthLimit: 3_000_000 },
    ]) {
      expect(statsShardsOf(limits) > 1).toBe(quotaShardOf(1, limits).shards > 1);
    }
  });

  it('gives each plan its count, tightened by the settings’ custom quotas', () => {
    expect(clientStatsShardsOf(undefined, { plan: 'free' })).toBe(1);
    expect(clientStatsShardsOf(undefined, { plan: 'starter' })).toBe(1);
    expect(clientStatsShardsOf(undefined, { plan: 'growth' })).toBe(16); // 20 000 a day
    expect(clientStatsShardsOf(undefined, { plan: 'scale' })).toBe(16);
    expect(
      clientStatsShardsOf(
        { custom_email_quota_per_day: 9_000, custom_email_quota_per_month: 200_000 },
        { plan: 'scale' },
      ),
    ).toBe(1);
    expect(clientStatsShardsOf(undefined, undefined)).toBe(1);
  });
});

describe('statsShardOf', () => {
  it('is the spread mod the shard count: always 0 on one shard', () => {
    expect(statsShardOf(42, 16)).toBe(10);
    expect(statsShardOf(42, 1)).toBe(0);
    expect(statsShardOf(-3, 16)).toBe(3);
  });
});

describe('statsReadShardsOf and statsShardsMaxOf (the reader covers every shard ever written)', () => {
  it('reads one shard for a default client, 16 for a client whose plan shards', () => {
    expect(statsReadShardsOf({ plan: 'free' })).toBe(1);
    expect(statsReadShardsOf({ plan: 'scale' })).toBe(16);
  });

  it('keeps reading 16 after the limits come down, from the recorded maximum', () => {
    expect(statsReadShardsOf({ plan: 'starter', stats_shards_max: 16 })).toBe(16);
  });

  it('records the maximum only for a sharded plan, and never lowers it', () => {
    expect(statsShardsMaxOf('free')).toEqual({});
    expect(statsShardsMaxOf('growth')).toEqual({ stats_shards_max: 16 });
    expect(statsShardsMaxOf('free', 16)).toEqual({ stats_shards_max: 16 });
  });
});
