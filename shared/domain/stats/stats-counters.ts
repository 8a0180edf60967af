/**
 * The day counters of a client's sending, one row per UTC day and workflow, kept by a projection of the table's
 * change stream (counter-facts.ts says which change counts what), so a count is exactly as exact as the fact: a
 * notification deduplicated by its log item is counted once, a claim given back takes its `sent` back.
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
