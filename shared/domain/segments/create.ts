import { conflict } from '../../errors.js';
import { quotaMonthOf } from '../settings/quota-period.js';
import { namedSourcesOf, validateSegment } from './definition/validate-segment.js';
import { startBackfill } from './backfill-segment.js';
import { type SegmentDeps, segmentView } from './get.js';
import { maxSegmentsOf } from './list.js';
import type { SegmentCreateBody, SegmentView } from './schemas-api.js';
import { assertNoIssues, BACKFILL_SHARDS, indexWrite, segmentRefsOf } from './segment-index.js';
import type { SegmentRecord } from './segment-store.js';

/** Lost to another segment write (the count or the index moved): read again and decide again. */
export const SEGMENT_WRITE_ATTEMPTS = 5;

/**
 * POST /client/segments: a new segment at version 1, `building` while its backfill evaluates the contacts already
 * stored. Reads in one wave: the count item with the index (strong), the settings bundle (plan), the topics. Then one
 * transaction (count, head, index, 8 progress items) and one SendMessageBatch starting the 8 backfill chains. A crash
 * before the send leaves the segment building with its progress at 0: the stale-backfill sweep sends the pages.
 */
export async function createSegment(
  deps: SegmentDeps,
  clientId: number,
  body: SegmentCreateBody,
): Promise<SegmentView> {
  const [bundle, topics, sources] = await Promise.all([
    deps.settings.load(clientId, quotaMonthOf(deps.clock.now())),
    deps.topics.load(clientId),
    deps.segments.existingSources(clientId, namedSourcesOf(body.definition)),
  ]);
  const max = maxSegmentsOf(bundle);
  for (let attempt = 1; attempt <= SEGMENT_WRITE_ATTEMPTS; attempt += 1) {
    const read = await deps.segments.readForWrite(clientId);
    const { definition, issues } = validateSegment(
      body.definition,
      segmentRefsOf(read.index, topics, undefined, sources),
    );
    assertNoIssues(issues);
    if ((read.count?.n ?? 0) >= max) throw limitReached(max);
    const id = read.count?.next_id ?? 1;
    const at = deps.clock.now().toISOString();
    const segment: SegmentRecord = {
      id,
      client_id: clientId,
      name: body.name,
      ...(body.description ? { description: body.description } : {}),
      definition: definition!,
      version: 1,
      status: 'building',
      backfill: { version: 1, started_at: at },
      created_at: at,
      updated_at: at,
    };
    const outcome = await deps.segments.create({
      segment,
      countRead: read.count,
      max,
      index: indexWrite(read.index, id, { id, version: 1, definition: segment.definition }),
      shards: BACKFILL_SHARDS,
    });
    if (outcome === 'limit') throw limitReached(max);
    if (outcome === 'stale') continue;
    await startBackfill(deps, clientId, id, 1);
    return segmentView(segment, undefined, []);
  }
  throw new Error(`Segment create for client ${clientId} lost to concurrent writes ${SEGMENT_WRITE_ATTEMPTS} times`);
}

const limitReached = (max: number) =>
  conflict('max', 'segments', `Your plan allows ${max} segments; delete one first or change plan`);
