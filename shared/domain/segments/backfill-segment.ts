import type { Clock, Queue, SegmentsMessage } from '../../platform.js';
import { evaluateContacts } from './evaluate-contacts.js';
import type { MembershipStore } from './membership-store.js';
import { BACKFILL_SHARDS } from './segment-index.js';
import type { SegmentStore } from './segment-store.js';

/** Contacts one backfill page reads and evaluates (one Query, three BatchGetItem in parallel, ≤ 2 transactions). */
export const BACKFILL_PAGE = 100;

/** A building segment whose chain has not moved for this long is restarted by the sweep. */
export const BACKFILL_STALE_MS = 2 * 60_000;

/** Stale backfills the sweep restarts in one run. */
const RESTARTS_PER_RUN = 50;

export type BackfillMessage = Extract<SegmentsMessage, { kind: 'backfill' }>;

export interface BackfillDeps {
  segments: SegmentStore;
  membership: MembershipStore;
  queue: Queue;
  clock: Clock;
}

const pageMessage = (clientId: number, segmentId: number, version: number, shard: number, after: number) =>
  ({ kind: 'backfill', client_id: clientId, segment_id: segmentId, version, shard, after }) satisfies BackfillMessage;

/** Sends the first page of each listing shard's chain (one SendMessageBatch). */
export async function startBackfill(
  deps: { queue: Queue },
  clientId: number,
  segmentId: number,
  version: number,
): Promise<void> {
  await deps.queue.sendBatch(
    'segments',
    Array.from({ length: BACKFILL_SHARDS }, (_, shard) => ({
      message: pageMessage(clientId, segmentId, version, shard, 0),
    })),
  );
}

/**
 * One page of a segment's backfill: the next 100 contacts of one listing shard are evaluated against this segment at
 * the version being built (evaluateContacts with `segment`: their other memberships stay), the shard's progress moves
 * (conditioned on where this page started, so a page delivered twice records once and only one of them goes on), and
 * the next page is sent; the last shard to finish sets the segment `ready`. Requests a page: 1 Query of the progress
 * and 1 BatchGetItem (head) in one wave, 1 Query of the listing, the evaluation's 3 BatchGetItem + its transactions,
 * 1 UpdateItem, 1 SendMessage. A crash anywhere: the message comes back and the page is done again (transitions
 * already written find nothing to change); a crash after the progress moved but before the next page was sent: the
 * chain is quiet, the sweep restarts it from the progress (restartStaleBackfills). A newer version supersedes: pages
 * of an older one stop.
 */
export async function backfillSegmentPage(deps: BackfillDeps, message: BackfillMessage): Promise<void> {
  const { client_id: clientId, segment_id: segmentId, version, shard, after } = message;
  const [progress, read] = await Promise.all([
    deps.segments.progress(clientId, segmentId),
    deps.segments.readForWrite(clientId, segmentId),
  ]);
  const segment = read.segment;
  const mine = progress.find((p) => p.shard === shard);
  if (!segment || segment.version !== version || !mine || mine.version !== version) return;
  if (mine.done || mine.after !== after) return;

  const page = await deps.segments.contactPage(clientId, shard, after, BACKFILL_PAGE);
  const result =
    page.ids.length > 0
      ? await evaluateContacts(deps, clientId, page.ids, {
          segment: { id: segmentId, version, definition: segment.definition },
        })
      : { entered: 0 };
  const next = page.ids.at(-1) ?? after;
  const recorded = await deps.segments.recordPage(clientId, segmentId, after, {
    shard,
    version,
    after: next,
    scanned: mine.scanned + page.ids.length,
    matched: mine.matched + result.entered,
    beat_at: deps.clock.now().toISOString(),
    done: page.last,
  });
  if (!recorded) return;
  if (!page.last) {
    await deps.queue.send('segments', pageMessage(clientId, segmentId, version, shard, next));
    return;
  }
  const all = await deps.segments.progress(clientId, segmentId);
  const finished = all.filter((p) => p.version === version && p.done).length;
  if (finished >= BACKFILL_SHARDS)
    await deps.segments.finishBackfill(clientId, segmentId, version, deps.clock.now().toISOString());
}

export type PurgeMessage = Extract<SegmentsMessage, { kind: 'purge' }>;

/** Member shards a segment's entries spread over (keys.ts: segmentMemberShards). */
export const MEMBER_SHARDS = 16;

/** Sends the first purge page of each member shard of a deleted segment (two SendMessageBatch calls). */
export async function startPurge(deps: { queue: Queue }, clientId: number, segmentId: number): Promise<void> {
  await deps.queue.sendBatch(
    'segments',
    Array.from({ length: MEMBER_SHARDS }, (_, shard) => ({
      message: { kind: 'purge', client_id: clientId, segment_id: segmentId, shard, after: 0 } satisfies PurgeMessage,
    })),
  );
}

/**
 * One page of a deleted segment's members: the next 100 entries of one member shard, their contacts evaluated
 * against the client's segments as they are now (the index no longer holds this one, so each leaves it: its member
 * entry and its state's marker go, in the contact's own transaction), then the next page. A segment id is never given
 * again, so a head found under it means it was not deleted: nothing to do. Idempotent: a page done twice finds the
 * contacts already out. Requests a page: 1 BatchGetItem (head), 1 Query, the evaluation's reads and transactions,
 * 1 SendMessage.
 */
export async function purgeSegmentPage(deps: BackfillDeps, message: PurgeMessage): Promise<void> {
  const { client_id: clientId, segment_id: segmentId, shard, after } = message;
  const read = await deps.segments.readForWrite(clientId, segmentId);
  if (read.segment) return;
  const page = await deps.segments.memberPage(clientId, segmentId, shard, after, BACKFILL_PAGE);
  if (page.ids.length > 0) await evaluateContacts(deps, clientId, page.ids);
  if (!page.last && page.ids.length > 0)
    await deps.queue.send('segments', { ...message, after: page.ids.at(-1)! } satisfies PurgeMessage);
}

/**
 * The net under backfill chains (called by the edges sweep): each building segment whose backfill started or was last
 * restarted over two minutes ago gets a page message for each of its shards not done whose progress has not moved for
 * two minutes, from where that progress stands (a duplicate of a live chain records nothing and stops). Requests: 1
 * Query of the stale entries, then per segment 1 Query + 1 BatchGetItem, ≤ 1 SendMessageBatch, 1 UpdateItem.
 */
export async function restartStaleBackfills(deps: Omit<BackfillDeps, 'membership'>): Promise<{ restarted: number }> {
  const now = deps.clock.now();
  const before = new Date(now.getTime() - BACKFILL_STALE_MS).toISOString();
  const stale = await deps.segments.staleBackfills(before, RESTARTS_PER_RUN);
  let restarted = 0;
  for (const { client_id: clientId, segment_id: segmentId } of stale) {
    const [progress, read] = await Promise.all([
      deps.segments.progress(clientId, segmentId),
      deps.segments.readForWrite(clientId, segmentId),
    ]);
    const segment = read.segment;
    if (segment?.status !== 'building') continue;
    const version = segment.version;
    const current = progress.filter((p) => p.version === version);
    const quiet = Array.from({ length: BACKFILL_SHARDS }, (_, shard) => shard).flatMap((shard) => {
      const p = current.find((c) => c.shard === shard);
      if (p && (p.done || p.beat_at > before)) return [];
      return [{ message: pageMessage(clientId, segmentId, version, shard, p?.after ?? 0) }];
    });
    if (quiet.length > 0) {
      await deps.queue.sendBatch('segments', quiet);
      restarted += quiet.length;
    } else if (current.filter((p) => p.done).length >= BACKFILL_SHARDS) {
      // Every shard finished but the head was not set ready (a crash after the last progress write).
      await deps.segments.finishBackfill(clientId, segmentId, version, now.toISOString());
      continue;
    }
    await deps.segments.touchBackfill(clientId, segmentId, version, now.toISOString());
  }
  return { restarted };
}
