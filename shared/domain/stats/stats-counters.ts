/**
 * The day counters of a client's sending (issue 21 §1), one row per UTC day and workflow. Each is raised in the
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
  /** Executions cancelled `goal_reached` by an exit event (issue 24 §1), at its processing or at send time. */
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
}

/** One event received, counted by its type on its UTC day. */
export interface EventTypeIncrement {
  clientId: number;
  day: string;
  type: string;
  spread: number;
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
 * How many items a client's counters are spread over. At the target load (docs/capacity.md: 200 sends/s for one
 * client, ≈ 6 counted facts an e-mail) one client's day takes ≈ 1 200 writes/s, over one partition key's 1 000 WCU/s;
 * 4 shards keep each near 300. A read queries every shard (4 Queries in parallel).
 */
export const STATS_SHARD_COUNT = 16;
export const statsShardOf = (spread: number): number => Math.abs(Math.trunc(spread)) % STATS_SHARD_COUNT;
