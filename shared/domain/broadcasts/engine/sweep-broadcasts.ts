import type { BatchMessage, JourneyTime, Scheduler } from '../../../platform.js';
import { dispatchBroadcast } from '../../engine/dispatch.js';
import type { LiveBroadcast } from '../recipient-store.js';
import { decideAtOf } from './decide-winner.js';
import { startOf } from './due-of.js';
import type { EngineDeps } from './start.js';

/** A chain silent this long is lost: its step's worker died between its write and its next message. */
export const LOST_AFTER_MS = 2 * 60_000;
/** Live broadcasts looked at in one run (a live one is between scheduled and sent: a few per client). */
const SWEEP_LIMIT = 500;

export interface SweepOptions {
  /**
   * The local runtime's start (its queues and schedules were in memory): every live broadcast gets its messages
   * again whatever their age, and a scheduled one its start at its time.
   */
  everyLive?: boolean;
}

/**
 * The lost-chain net (every minute; the local runtime's start with `everyLive`). Live broadcasts whose entry is due
 * are read with their pacer and snapshot progress, and each chain silent for 2 minutes gets its message again: a
 * scheduled broadcast past its start → `start`; a snapshot shard not done whose last page was 2 minutes ago →
 * `snapshot`; a sending broadcast whose pacer neither beat nor sleeps until later → `pace` (naming no chain: it takes
 * the chain over); a cancelled one still listed → `cancel`. Every step is idempotent on the broadcast's items, so a
 * message sent beside a chain that was only slow costs a few reads.
 * Requests: 4 Queries, 1–2 BatchGetItem, 1 SendMessageBatch per 10 messages.
 */
export async function sweepBroadcasts(
  deps: Omit<EngineDeps, 'scheduler' | 'ids'> & { scheduler?: Scheduler },
  options: SweepOptions = {},
): Promise<{ resent: number }> {
  const now = deps.clock.now();
  const before = new Date(now.getTime() - (options.everyLive ? 0 : LOST_AFTER_MS));
  const refs = await deps.recipients.liveBefore(options.everyLive ? FAR_FUTURE : before.toISOString(), SWEEP_LIMIT);
  if (refs.length === 0) return { resent: 0 };
  const live = await deps.recipients.loadLive(refs);
  const messages: BatchMessage<'broadcast'>[] = [];
  let scheduled = 0;
  for (const broadcast of live) {
    const found = lostSteps(broadcast, before, options.everyLive === true, deps.journeyTime);
    messages.push(...found.map((message) => ({ message })));
    if (options.everyLive && broadcast.head.status === 'scheduled') {
      const startAt = startOf(broadcast.head.definition.schedule, now);
      if (startAt > now && deps.scheduler) {
        const message = { ...base(broadcast), kind: 'start' as const, gen: broadcast.head.draft_version };
        await dispatchBroadcast({ queue: deps.queue, scheduler: deps.scheduler }, message, startAt, now);
        scheduled += 1;
      }
    }
  }
  if (messages.length > 0) await deps.queue.sendBatch('broadcast', messages);
  return { resent: messages.length + scheduled };
}

const FAR_FUTURE = '9999-12-31T23:59:59.999Z';

const base = (b: LiveBroadcast) => ({ client_id: b.head.client_id, broadcast_id: b.head.id });

/** The messages a live broadcast's lost chains need (none when every chain beat within the window). */
export function lostSteps(broadcast: LiveBroadcast, before: Date, everyLive: boolean, journeyTime?: JourneyTime) {
  const { head, pacer, shards } = broadcast;
  const stale = (at: string | undefined) => at === undefined || Date.parse(at) <= before.getTime();
  const out: {
    client_id: number;
    broadcast_id: number;
    kind: 'start' | 'snapshot' | 'pace' | 'cancel' | 'decide';
    shard?: number;
    gen?: number;
  }[] = [];
  if (head.status === 'scheduled') {
    if (startOf(head.definition.schedule, before) <= before)
      out.push({ ...base(broadcast), kind: 'start', gen: head.draft_version });
    return out;
  }
  if (head.status === 'cancelled') return [{ ...base(broadcast), kind: 'cancel' as const }];
  if (['snapshotting', 'sending', 'paused'].includes(head.status) && head.snapshot) {
    const done = new Set(head.snapshot.done);
    for (let shard = 0; shard < head.snapshot.sources; shard++) {
      if (done.has(shard)) continue;
      if (everyLive || stale(shards[shard]?.beat_at ?? head.started_at))
        out.push({ ...base(broadcast), kind: 'snapshot', shard });
    }
  }
  // An A/B test whose winner's time passed 2 minutes ago with none chosen: its decide step was lost.
  if (
    head.definition.ab &&
    !head.winner &&
    head.started_at &&
    ['snapshotting', 'sending', 'paused'].includes(head.status) &&
    (everyLive || decideAtOf(head, journeyTime) <= before)
  )
    out.push({ ...base(broadcast), kind: 'decide' });
  if (head.status === 'sending' && (everyLive || !pacer || (stale(pacer.beat_at) && stale(pacer.next_at))))
    out.push({ ...base(broadcast), kind: 'pace' });
  return out;
}
