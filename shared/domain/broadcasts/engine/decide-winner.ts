import type { BroadcastMessage, JourneyTime } from '../../../platform.js';
import type { BroadcastAbMetric } from '../../../public/broadcast-rules.js';
import { dispatchBroadcast } from '../../engine/dispatch.js';
import { highestRateIndex, rateOf } from '../../stats/highest-rate.js';
import type { StatCounts } from '../../stats/stats-counters.js';
import type { BroadcastWinner, EngineBroadcast } from '../recipient-store.js';
import { startPacing } from './pacer.js';
import type { EngineDeps } from './start.js';

const REAL_HOUR_MS = 3_600_000;

/** When an A/B test's winner is chosen: its start + `decide_after_hours` (hours of 60 journey minutes: real on AWS). */
export function decideAtOf(
  head: Pick<EngineBroadcast, 'started_at' | 'definition'>,
  journeyTime: JourneyTime | undefined,
): Date {
  const hourMs = journeyTime ? journeyTime.minuteMs * 60 : REAL_HOUR_MS;
  return new Date(Date.parse(head.started_at!) + (head.definition.ab?.decide_after_hours ?? 0) * hourMs);
}

/** The counter of the variant rows a metric is read from (first human opens and clicks of each e-mail). */
const COUNTER_OF: Record<BroadcastAbMetric, keyof StatCounts> = {
  human_opens: 'opened',
  human_clicks: 'clicked',
  conversions: 'converted',
};

/**
 * The winner of a broadcast's variants from their result rows: the metric per e-mail delivered, by the one winner rule
 * every A/B choice follows (highestRateIndex: exact, a tie and no data to the first variant).
 */
export function winnerOf(
  metric: BroadcastAbMetric,
  rows: readonly Partial<StatCounts>[],
  variants: number,
  now: Date,
): BroadcastWinner {
  const counter = COUNTER_OF[metric];
  const totals = Array.from({ length: variants }, (_, v) => ({
    count: rows[v]?.[counter] ?? 0,
    base: rows[v]?.delivered ?? 0,
  }));
  return {
    variant: highestRateIndex(totals),
    metric,
    rates: totals.map((t) => rateOf(t.count, t.base)),
    delivered: totals.map((t) => t.base),
    decided_at: now.toISOString(),
  };
}

/** States in which a winner may still be chosen (a cancelled broadcast sends no holdout). */
const DECIDES = new Set(['snapshotting', 'sending', 'paused']);

/**
 * An A/B test's decide step (at its start + decide_after_hours): one read of the head and the variants' result rows
 * (the day-counters projection's, following the facts by ~10 s); the winner written on the head once
 * (`attribute_not_exists(winner)`), then a pacer message naming no chain (it takes the chain over and now reads the
 * holdouts' partitions too). Early (a schedule or a sweep ahead of time): sent back for its time. A duplicate, or a
 * redelivery after the write: the winner stands, the pacer message is sent again (harmless: a pass with nothing new
 * releases nothing twice). Lost between the write and the message: the sweep sees the sending broadcast's pacer
 * silent past its time and restarts it; lost before the write: the sweep sees the time passed with no winner and
 * sends this step again.
 * Requests: 1 BatchGetItem, 1 UpdateItem, 1 SendMessage.
 */
export async function decideWinner(deps: EngineDeps, message: BroadcastMessage): Promise<string> {
  const { client_id: clientId, broadcast_id: broadcastId } = message;
  const { head, variants } = await deps.recipients.decideContext(clientId, broadcastId);
  if (!head?.definition.ab || !head.started_at || !DECIDES.has(head.status)) return 'stopped';
  const now = deps.clock.now();
  let current: EngineBroadcast | undefined = head;
  let outcome = 'decided_before';
  if (!head.winner) {
    const at = decideAtOf(head, deps.journeyTime);
    if (at.getTime() > now.getTime()) {
      await dispatchBroadcast(deps, { client_id: clientId, broadcast_id: broadcastId, kind: 'decide' }, at, now);
      return 'not_due';
    }
    const winner = winnerOf(head.definition.ab.metric, variants, head.definition.variants.length, now);
    if (await deps.recipients.writeWinner(head, winner)) {
      current = { ...head, winner };
      outcome = 'decided';
    } else {
      // Another decide came first (or this write's own first attempt, its answer lost): read what stands.
      current = await deps.recipients.head(clientId, broadcastId);
    }
  }
  // A paused broadcast's holdouts go out when it is resumed (resume starts the pacer); a snapshotting one's pacer
  // starts at the snapshot's end and reads the winner then.
  if (current?.status === 'sending' && current.winner) await startPacing(deps, current);
  return outcome;
}
