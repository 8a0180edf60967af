import type { ExecutionClaim, ExecutionRecord } from '../executions/execution-record.js';
import type { Finish } from '../executions/execution-store.js';
import { utcDayOf } from '../time/utc-days.js';
import { LEGACY_STATS_SHARDS, statsShardOf, type StatsIncrement } from './stats-counters.js';

/**
 * A reason as the counters keep it: its code, before any detail (`send_rejected: MessageRejected …` →
 * `send_rejected`), at most 64 characters, so the reasons a day row holds stay few and short.
 */
export const reasonCode = (reason: string | undefined): string =>
  (reason ?? 'unknown').split(':')[0]!.trim().slice(0, 64) || 'unknown';

/** What ending an execution adds to its workflow's day row: a failure or a skip with its reason, a goal's exit; nothing else. */
export function finishIncrement(execution: ExecutionRecord, finish: Finish): StatsIncrement | undefined {
  const base = {
    clientId: execution.client_id,
    workflowId: execution.workflow_id,
    day: utcDayOf(Date.parse(finish.at)),
    spread: execution.id,
    shards: finish.statsShards ?? 1,
  };
  if (finish.status === 4) return { ...base, counts: { failed: 1 }, failedReason: reasonCode(finish.reason) };
  if (finish.status === 6) return { ...base, counts: { skipped: 1 }, skippedReason: reasonCode(finish.reason) };
  // Stopped at send time by an exit event the processing-time cancel missed.
  if (finish.status === 5 && finish.reason === 'goal_reached') return { ...base, counts: { exited: 1 } };
  return undefined;
}

/**
 * A send put off (quota, cap, send window, paused sending, SES throttling): one `deferred` on the day it happened, on
 * the client's `shards`.
 */
export const deferIncrement = (execution: ExecutionRecord, at: string, shards: number): StatsIncrement => ({
  clientId: execution.client_id,
  workflowId: execution.workflow_id,
  day: utcDayOf(Date.parse(at)),
  counts: { deferred: 1 },
  spread: execution.id,
  shards,
});

/**
 * A claim made (`sent` + 1) or given back without a send (`sent` − 1), on the claim's own UTC day and shard count
 * (`shards`: the claim's `stats_shards`, so a give-back lands on its claim's row).
 */
export const claimIncrement = (
  execution: ExecutionRecord,
  claimDay: string,
  sent: 1 | -1,
  shards: number,
  extra: Partial<Pick<StatsIncrement, 'counts'>> = {},
): StatsIncrement => ({
  clientId: execution.client_id,
  workflowId: execution.workflow_id,
  day: claimDay,
  counts: { sent, ...extra.counts },
  spread: execution.id,
  shards,
});

/** The shard count a claim's give-back uses: its own, or LEGACY_STATS_SHARDS for a claim made before it was kept. */
export const claimStatsShardsOf = (claim: Pick<ExecutionClaim, 'stats_shards'>): number =>
  claim.stats_shards ?? LEGACY_STATS_SHARDS;

/**
 * Increments of one fact's transaction merged per row (same day and workflow): a transaction may not touch one item
 * twice, and a claim given back and the deferral it becomes usually share their day.
 */
export function mergeIncrements(increments: readonly StatsIncrement[]): StatsIncrement[] {
  const merged = new Map<string, StatsIncrement>();
  for (const increment of increments) {
    const key = `${increment.clientId}#${increment.day}#${increment.workflowId}#${statsShardOf(increment.spread, increment.shards)}`;
    const existing = merged.get(key);
    if (!existing) {
      merged.set(key, { ...increment, counts: { ...increment.counts } });
      continue;
    }
    for (const [name, value] of Object.entries(increment.counts) as [keyof StatsIncrement['counts'], number][]) {
      existing.counts[name] = (existing.counts[name] ?? 0) + value;
    }
    existing.skippedReason ??= increment.skippedReason;
    existing.failedReason ??= increment.failedReason;
  }
  return [...merged.values()];
}
