import { conflict, notFound } from '../../errors.js';
import { canonicalJson } from './definition/canonical.js';
import { namedSourcesOf, validateSegment } from './definition/validate-segment.js';
import { startBackfill } from './backfill-segment.js';
import { SEGMENT_WRITE_ATTEMPTS } from './create.js';
import { type SegmentDeps, segmentView } from './get.js';
import type { SegmentPatchBody, SegmentView } from './schemas-api.js';
import { assertNoIssues, BACKFILL_SHARDS, indexWrite, segmentRefsOf } from './segment-index.js';
import type { SegmentRecord } from './segment-store.js';

/**
 * PATCH /client/segments/{id}: name and description change in place; a different definition is a new version
 * (version + 1), the segment `building` again while a backfill evaluates every contact against it (pages of the
 * older version stop). `version` must be the one read: 409 `state` when the definition moved since. Reads: the head
 * with the count and the index (one BatchGetItem, strong) and the topics; one transaction (head + summary, with a new
 * definition also the index and 8 progress items), then the 8 backfill chains.
 */
export async function updateSegment(
  deps: SegmentDeps,
  clientId: number,
  id: number,
  body: SegmentPatchBody,
): Promise<SegmentView> {
  const [topics, sources] = body.definition
    ? await Promise.all([
        deps.topics.load(clientId),
        deps.segments.existingSources(clientId, namedSourcesOf(body.definition)),
      ])
    : [undefined, undefined];
  for (let attempt = 1; attempt <= SEGMENT_WRITE_ATTEMPTS; attempt += 1) {
    const read = await deps.segments.readForWrite(clientId, id);
    const current = read.segment;
    if (!current) throw notFound('id', 'Segment not found');
    if (current.version !== body.version) {
      throw conflict(
        'state',
        'version',
        `The segment is at version ${current.version}: read it again and apply your change to that`,
      );
    }
    let definition = current.definition;
    if (body.definition && topics) {
      const checked = validateSegment(body.definition, segmentRefsOf(read.index, topics, id, sources));
      assertNoIssues(checked.issues);
      definition = checked.definition!;
    }
    const redefined = canonicalJson(definition) !== canonicalJson(current.definition);
    const at = deps.clock.now().toISOString();
    const version = redefined ? current.version + 1 : current.version;
    const description = body.description ?? current.description;
    const segment: SegmentRecord = {
      ...current,
      name: body.name ?? current.name,
      ...(description ? { description } : {}),
      definition,
      version,
      ...(redefined ? { status: 'building' as const, backfill: { version, started_at: at } } : {}),
      updated_at: at,
    };
    if (!description) delete segment.description;
    const outcome = await deps.segments.update({
      segment,
      readVersion: current.version,
      ...(redefined
        ? { rebuild: { index: indexWrite(read.index, id, { id, version, definition }), shards: BACKFILL_SHARDS } }
        : {}),
    });
    if (outcome === 'stale') continue;
    if (redefined) await startBackfill(deps, clientId, id, version);
    const after = await deps.segments.get(clientId, id);
    return segmentView(after.segment ?? segment, after.gauge, after.progress);
  }
  throw conflict('state', 'version', 'The segment kept changing while this change was written; read it again');
}
