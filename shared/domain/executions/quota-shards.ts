/**
 * How the client's quota counter is spread (docs/capacity.md): one item, or — when its limits allow 10 000+ sends a
 * day or 300 000+ a month — 8 items chosen by execution id, so concurrent claims rarely meet on one item. Each shard
 * is allowed an exact share of the limit (the shares add up to the limit): the sum can stop up to 7 short of the
 * limit while some shard still has room, never above it.
 */
export const QUOTA_SHARD_COUNT = 8;
/**
 * A client whose limits reach either of these sends at a rate one item cannot take (docs/capacity.md): its quota and
 * its day counters (stats-counters.ts `statsShardsOf`) are spread over shards; below both, each is one item.
 */
export const SHARDED_DAY_LIMIT = 10_000;
export const SHARDED_MONTH_LIMIT = 300_000;

/** Whether limits this high need their counters sharded (the one rule the quota and the day counters share). */
export const needsShards = (limits: { dayLimit: number; monthLimit: number }): boolean =>
  limits.dayLimit >= SHARDED_DAY_LIMIT || limits.monthLimit >= SHARDED_MONTH_LIMIT;

export interface QuotaShard {
  shard: number;
  shards: number;
  dayShare: number;
  monthShare: number;
}

/** Shard `i` of `n` gets ⌊limit / n⌋, the first `limit mod n` shards one more. */
export const shareOf = (limit: number, shard: number, shards: number): number =>
  Math.floor(limit / shards) + (shard < limit % shards ? 1 : 0);

export function quotaShardOf(executionId: number, limits: { dayLimit: number; monthLimit: number }): QuotaShard {
  const shards = needsShards(limits) ? QUOTA_SHARD_COUNT : 1;
  const shard = executionId % shards;
  return {
    shard,
    shards,
    dayShare: shareOf(limits.dayLimit, shard, shards),
    monthShare: shareOf(limits.monthLimit, shard, shards),
  };
}
