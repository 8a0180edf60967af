import type { BroadcastMessage, Clock, Ids, JourneyTime } from '../../../platform.js';
import { dispatchBroadcast, type DispatchDeps } from '../../engine/dispatch.js';
import { audienceSourceOf, type EngineBroadcast, type RecipientStore } from '../recipient-store.js';
import { decideAtOf } from './decide-winner.js';
import { startOf } from './due-of.js';

export interface EngineDeps extends DispatchDeps {
  clock: Clock;
  recipients: RecipientStore;
  ids: Ids;
  /** How long an hour of an A/B test's `decide_after_hours` lasts: a real one, except in a local test runtime. */
  journeyTime?: JourneyTime;
}

/** Recipients a due partition is sized for: a broadcast takes one partition per 50,000 (1–16). */
const RECIPIENTS_PER_PARTITION = 50_000;
export const MAX_DUE_PARTITIONS = 16;

/** Due partitions for an audience of about `estimate` (unknown: all 16, so a large audience never meets a hot one). */
export const duePartitionsOf = (estimate: number | undefined): number =>
  estimate === undefined
    ? MAX_DUE_PARTITIONS
    : Math.min(MAX_DUE_PARTITIONS, Math.max(1, Math.ceil(estimate / RECIPIENTS_PER_PARTITION)));

/**
 * A broadcast's start (its scheduled time came): scheduled → snapshotting, conditioned on the draft version the
 * schedule was made for (`gen`), with `started_at`, the due partitions and the snapshot's progress; then one
 * `snapshot` message per source shard of the audience. A start that comes early (a schedule fired ahead, a sweep)
 * is sent back for its time; a redelivered start finds the head snapshotting and sends the unfinished shards' messages
 * again (each page is conditioned on its shard's progress, so a second chain writes nothing twice); a start of a
 * replaced schedule (another draft version) or a broadcast no longer scheduled does nothing.
 * Requests: 1 GetItem, (1 GetItem of a segment's gauge), 1 UpdateItem, 1 SendMessageBatch.
 */
export async function startBroadcast(deps: EngineDeps, message: BroadcastMessage): Promise<string> {
  const { client_id: clientId, broadcast_id: broadcastId } = message;
  const head = await deps.recipients.head(clientId, broadcastId);
  if (!head) return 'missing';
  const now = deps.clock.now();
  if (head.status === 'snapshotting') return resendShards(deps, head, now);
  if (head.status !== 'scheduled' || message.gen !== head.draft_version) return 'stale';
  const startAt = startOf(head.definition.schedule, now);
  if (startAt.getTime() > now.getTime()) {
    await dispatchBroadcast(deps, message, startAt, now);
    return 'not_due';
  }
  const estimate = await deps.recipients.audienceEstimate(clientId, audienceSourceOf(head));
  const sources = deps.recipients.sourceShards(audienceSourceOf(head));
  // Recipients are due from the actual start: a local_time broadcast started late (its start lost, the service
  // down) sends a zone whose hour has passed at the next day's, never hours late.
  const started = await deps.recipients.startSnapshot(
    head,
    head.draft_version,
    now.toISOString(),
    duePartitionsOf(estimate),
    sources,
  );
  if (!started) {
    // Refused: another start came first — or this one's own write, its answer lost and retried. Either way a
    // snapshotting head gets its shards' messages (each page is conditioned on its shard's cursor).
    const current = await deps.recipients.head(clientId, broadcastId);
    return current?.status === 'snapshotting' && current.draft_version === head.draft_version
      ? resendShards(deps, current, now)
      : 'stale';
  }
  await sendShards(
    deps,
    head,
    Array.from({ length: sources }, (_, shard) => shard),
  );
  // An A/B test's winner is chosen at its time (lost with this worker: the sweep sends it once that time passed).
  if (head.definition.ab)
    await dispatchBroadcast(
      deps,
      { client_id: clientId, broadcast_id: broadcastId, kind: 'decide' },
      decideAtOf({ ...head, started_at: now.toISOString() }, deps.journeyTime),
      now,
    );
  return 'started';
}

/** A snapshotting broadcast's shards not finished yet get their page message again (a lost or redelivered chain). */
export async function resendShards(deps: EngineDeps, head: EngineBroadcast, _now: Date): Promise<string> {
  const sources = head.snapshot?.sources ?? deps.recipients.sourceShards(audienceSourceOf(head));
  const done = new Set(head.snapshot?.done ?? []);
  const open = Array.from({ length: sources }, (_, shard) => shard).filter((shard) => !done.has(shard));
  await sendShards(deps, head, open);
  return 'resent';
}

async function sendShards(deps: EngineDeps, head: EngineBroadcast, shards: readonly number[]): Promise<void> {
  if (shards.length === 0) return;
  await deps.queue.sendBatch(
    'broadcast',
    shards.map((shard) => ({
      message: { client_id: head.client_id, broadcast_id: head.id, kind: 'snapshot' as const, shard },
    })),
  );
}
