/**
 * How the client's quota counter is spread (docs/capacity.md): one item, or — when its limits allow 10 000+ sends a
 * day or 300 000+ a month — 8 items chosen by execution id, so concurrent claims rarely meet on one item. Each shard
 * is allowed an exact share of the limit (the shares add up to the limit): the sum can stop up to 7 short of the
 * limit while some shard still has room, never above it.
 */
export const QUOTA_SHARD_COUNT = 8;
const SHARD_DAY_LIMIT = 10_000;
const SHARD_MONTH_LIMIT = 300_000;

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
  const shards = limits.dayLimit >= SHARD_DAY_LIMIT || limits.monthLimit >= SHARD_MONTH_LIMIT ? QUOTA_SHARD_COUNT : 1;
  const shard = executionId % shards;
  return { shard, shards, dayShare: shareOf(limits.dayLimit, shard, shards), monthShare: shareOf(limits.monthLimit, shard, shards) };
}
