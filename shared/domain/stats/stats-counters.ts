import { needsShards } from '../executions/quota-shards.js';
import { effectiveLimits, planOf } from '../settings/effective-settings.js';
import type { SettingsFields } from '../settings/settings-store.js';

/**
 * The day counters of a client's sending, one row per UTC day and workflow. Each is raised in the
 * transaction that records its fact, so a count is exactly as exact as the fact: a notification deduplicated by its
 * log item is counted once, a claim given back takes its `sent` back.
 */
export const STAT_COUNTERS = [
  /** Executions created for the workflow (events that triggered it; a retry is not counted again). */
  'executions',
  /** E-mails claimed for sending (the claim transaction); given back when the claim is released without a send. */
  'sent',
  'delivered',
  /** E-mails opened by a human, once per e-mail (the engagement marker that counts it on the contact). */
  'opened',
  /** E-mails clicked by a human, once per e-mail. */
  'clicked',
  /** Open notifications from machines (scanners, Apple Mail Privacy Protection), every one. */
  'bot_opened',
  /** Click notifications from machines (link scanners), every one. */
  'bot_clicked',
  'bounced_hard',
  'bounced_soft',
  'complained',
  /** Contacts who unsubscribed through the e-mail's one-click link. */
  'unsubscribed_link',
  /** Contacts SES reported unsubscribed (its own list-unsubscribe handling). */
  'unsubscribed_ses',
  /** Contacts the service unsubscribed after a hard bounce, a complaint or repeated soft bounces. */
  'unsubscribed_suppression',
  /** Executions that failed (4); `failed_reasons` tells why. */
  'failed',
  /** Executions skipped (6); `skipped_reasons` tells why. */
  'skipped',
  /** Times a send was put off (quota, contact cap, send window, paused sending, SES throttling). */
  'deferred',
  /** Executions cancelled `goal_reached` by an exit event, at its processing or at send time. */
  'exited',
  /** Exit events within the conversion window after an e-mail of the workflow was sent to the contact, once per e-mail. */
  'converted',
] as const;

export type StatCounter = (typeof STAT_COUNTERS)[number];
export type StatCounts = Record<StatCounter, number>;

/** What one fact adds to its day row: counters, and the reason of a skip or failure. */
export interface StatsIncrement {
  clientId: number;
  /** 0 when the fact cannot name its workflow (e-mails sent before workflows were recorded on their messages). */
  workflowId: number;
  /** UTC yyyy-mm-dd of the fact. */
  day: string;
  counts: Partial<StatCounts>;
  skippedReason?: string;
  failedReason?: string;
  /** Spreads a client's writes over the stats shards (an execution, contact or event id). */
  spread: number;
  /** The client's shard count when the fact happened (statsShardsOf its limits): the row is shard `spread mod shards`. */
  shards: number;
  /**
   * One event of this type received, counted on this row instead of an event-type row (processing's commit writes a
   * workflow row anyway when the event started, ended or converted something: one row fewer, 2 WCU less). A read
   * adds it to the events received by type, as an event-type row's count.
   */
  eventType?: string;
}

/** One event received, counted by its type on its UTC day. */
export interface EventTypeIncrement {
  clientId: number;
  day: string;
  type: string;
  spread: number;
  /** As StatsIncrement's. */
  shards: number;
}

/** A stored day row of one workflow, as read back. */
export interface WorkflowDayRow {
  day: string;
  workflowId: number;
  counts: StatCounts;
  skippedReasons: Record<string, number>;
  failedReasons: Record<string, number>;
}

/** Events of one type received on one UTC day. */
export interface EventTypeDayRow {
  day: string;
  type: string;
  received: number;
}

export const zeroCounts = (): StatCounts => Object.fromEntries(STAT_COUNTERS.map((name) => [name, 0])) as StatCounts;

/** A's counts plus B's (B's absent counters are 0). */
export function addCounts(into: StatCounts, from: Partial<StatCounts>): StatCounts {
  for (const name of STAT_COUNTERS) into[name] += from[name] ?? 0;
  return into;
}

/** Adds `from`'s reason counts into `into`. */
export function addReasons(into: Record<string, number>, from: Record<string, number>): Record<string, number> {
  for (const [reason, count] of Object.entries(from)) into[reason] = (into[reason] ?? 0) + count;
  return into;
}

/**
 * How many items a client's day counters are spread over, at most. At the target load (docs/capacity.md: 200 sends/s
 * for one client, ≈ 6 counted facts an e-mail) one client's day takes ≈ 1 200 writes/s, over one partition key's
 * 1 000 WCU/s; 16 shards keep each near 75.
 */
export const STATS_SHARD_COUNT = 16;

/**
 * The shards a client's counters are written over, by its current sending limits (the sharding rule: "sharded where one
 * client's day could pass 1 000 WCU/s"): 1 below the limits that shard the quota (quota-shards.ts `needsShards`:
 * 10 000 a day or 300 000 a month — a free, starter or growth plan), STATS_SHARD_COUNT at or above them. One shard
 * keeps a client's 90-day read to one Query; a client allowed 10 000 sends a day writes ≈ 0.7 facts a second on
 * average, far below one key's limit.
 */
export const statsShardsOf = (limits: { dayLimit: number; monthLimit: number }): number =>
  needsShards(limits) ? STATS_SHARD_COUNT : 1;

/**
 * statsShardsOf the client's current limits (its plan, tightened by its settings' custom quotas), from the settings
 * and profile the writer read anyway. No client (gone): 1.
 */
export const clientStatsShardsOf = (
  settings: SettingsFields | undefined,
  client: { plan: string } | undefined,
): number => {
  if (!client) return 1;
  const limits = effectiveLimits(settings, planOf(client.plan));
  return statsShardsOf({ dayLimit: limits.emailsPerDay, monthLimit: limits.emailsPerMonth });
};

/** The shard a fact lands on: its spread (an execution, contact or event id) mod the client's shard count. */
export const statsShardOf = (spread: number, shards: number): number =>
  Math.abs(Math.trunc(spread)) % Math.max(1, Math.trunc(shards));

/**
 * A fact whose record predates the shard count (a message or claim recorded before the sharding rule): the
 * counters were then spread over STATS_SHARD_COUNT for every client. A give-back pairs with its claim's row, so it uses
 * this; a new fact of such a message uses 1 (shard 0, which every read includes).
 */
export const LEGACY_STATS_SHARDS = STATS_SHARD_COUNT;

/**
 * How many shards a read of the client's counters covers: the most its counters were ever written over. That is the
 * shard count of its plan's limits (settings may only tighten them, so the effective limits never shard more) or what
 * the client item recorded (`stats_shards_max`, set with the limits that raised it), whichever is more. A client that
 * was big and became small keeps its old rows read.
 */
export const statsReadShardsOf = (client: { plan: string; stats_shards_max?: number }): number => {
  const plan = planOf(client.plan);
  return Math.max(
    statsShardsOf({ dayLimit: plan.max_emails_per_day, monthLimit: plan.max_emails_per_month }),
    client.stats_shards_max ?? 1,
  );
};

/**
 * The client item's `stats_shards_max` for a client given this plan: set (to STATS_SHARD_COUNT) when the plan's limits
 * shard the counters, nothing otherwise. A write that raises a client's limits (its creation; a plan change, should one
 * be built) sets it with them, in the same write, and never lowers it.
 */
export function statsShardsMaxOf(tier: string, recorded?: number): { stats_shards_max?: number } {
  const plan = planOf(tier);
  const shards = Math.max(
    statsShardsOf({ dayLimit: plan.max_emails_per_day, monthLimit: plan.max_emails_per_month }),
    recorded ?? 1,
  );
  return shards > 1 ? { stats_shards_max: shards } : {};
}
