import { conflict, notFound } from '../../errors.js';
import type { BroadcastStore } from '../broadcasts/broadcast-store.js';
import type { JourneyStore } from '../journeys/journey-store.js';
import { startPurge } from './backfill-segment.js';
import { SEGMENT_WRITE_ATTEMPTS } from './create.js';
import type { SegmentDeps } from './get.js';
import { indexWrite } from './segment-index.js';

/** What a broadcast still reads its segment in: from scheduled (its snapshot ahead) until it is sent or cancelled. */
const LIVE = new Set<string>(['scheduled', 'snapshotting', 'sending', 'paused']);

/**
 * DELETE /client/segments/{id}: the head, its summary and its place in the plan's count go, with the index without
 * it (one transaction after one strong BatchGetItem); then a purge chain per member shard (two SendMessageBatch)
 * evaluates its members again, so each leaves it and its count goes to 0. A crash before the purge is sent leaves
 * the entries to the evaluator: each member leaves the segment at its next change (every segment the index no longer
 * holds is left).
 * A broadcast scheduled, snapshotting, sending or paused to it holds it (409 `state` naming them): the broadcasts ever
 * scheduled to it are read with its head (no scan) and their statuses in one BatchGetItem; the delete is conditioned
 * on that list's count, so a broadcast scheduled after the read makes it read again.
 * A live or paused journey whose trigger enters or leaves it holds it too (409 `state` naming the journey): the
 * journey index is read in the same wave and the delete is conditioned on its version, as a journey's publish is on
 * the segment's existence, so neither can slip past the other. A branch on a deleted segment finds no one in it.
 */
export async function deleteSegment(
  deps: Pick<SegmentDeps, 'segments' | 'queue'> & {
    broadcasts: Pick<BroadcastStore, 'statuses'>;
    journeys: Pick<JourneyStore, 'index'>;
  },
  clientId: number,
  id: number,
): Promise<{ id: number; deleted: true }> {
  for (let attempt = 1; attempt <= SEGMENT_WRITE_ATTEMPTS; attempt += 1) {
    const [read, journeys] = await Promise.all([
      deps.segments.readForWrite(clientId, id),
      deps.journeys.index(clientId),
    ]);
    if (!read.segment) throw notFound('id', 'Segment not found');
    const starting = journeys.journeys.find((j) => j.trigger.segment?.segment_id === id);
    if (starting) {
      throw conflict(
        'state',
        'id',
        `Journey ${starting.id} (${starting.name}, ${starting.status}) starts when contacts ` +
          `${starting.trigger.segment!.on} this segment; publish it with another ` +
          'trigger or archive it first',
      );
    }
    const uses = read.broadcastUses;
    if (uses && uses.broadcastIds.length > 0) {
      const statuses = await deps.broadcasts.statuses(clientId, uses.broadcastIds);
      const live = uses.broadcastIds.filter((b) => LIVE.has(statuses.get(b) ?? 'sent'));
      if (live.length > 0)
        throw conflict(
          'state',
          'id',
          `${live.length === 1 ? 'Broadcast' : 'Broadcasts'} ${live.join(', ')} ${live.length === 1 ? 'sends' : 'send'} ` +
            'to this segment: cancel them, or wait until they are sent, then delete it',
        );
    }
    const outcome = await deps.segments.delete(
      read.segment,
      read.segment.version,
      indexWrite(read.index, id),
      uses?.n ?? 0,
      journeys.version,
    );
    if (outcome === 'done') {
      await startPurge(deps, clientId, id);
      return { id, deleted: true };
    }
  }
  throw conflict('state', 'id', 'The segment kept changing while it was being deleted; try again');
}
