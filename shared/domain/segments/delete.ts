import { conflict, notFound } from '../../errors.js';
import { startPurge } from './backfill-segment.js';
import { SEGMENT_WRITE_ATTEMPTS } from './create.js';
import type { SegmentDeps } from './get.js';
import { indexWrite } from './segment-index.js';

/**
 * DELETE /client/segments/{id}: the head, its summary and its place in the plan's count go, with the index without
 * it (one transaction after one strong BatchGetItem); then a purge chain per member shard (two SendMessageBatch)
 * evaluates its members again, so each leaves it and its count goes to 0. A crash before the purge is sent leaves
 * the entries to the evaluator: each member leaves the segment at its next change (every segment the index no longer
 * holds is left).
 */
export async function deleteSegment(
  deps: Pick<SegmentDeps, 'segments' | 'queue'>,
  clientId: number,
  id: number,
): Promise<{ id: number; deleted: true }> {
  for (let attempt = 1; attempt <= SEGMENT_WRITE_ATTEMPTS; attempt += 1) {
    const read = await deps.segments.readForWrite(clientId, id);
    if (!read.segment) throw notFound('id', 'Segment not found');
    const outcome = await deps.segments.delete(read.segment, read.segment.version, indexWrite(read.index, id));
    if (outcome === 'done') {
      await startPurge(deps, clientId, id);
      return { id, deleted: true };
    }
  }
  throw conflict('state', 'id', 'The segment kept changing while it was being deleted; try again');
}
