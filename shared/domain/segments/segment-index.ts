import { invalidField, unprocessable } from '../../errors.js';
import type { TopicSet } from '../topics/topic-store.js';
import { compileIndex, engagementSourcesOf, specIdsOf } from './definition/specs.js';
import type { CompiledSegment, SegmentIssue } from './definition/types.js';
import type { SegmentRefs } from './definition/validate-segment.js';
import type { IndexWrite, StoredSegmentIndex } from './segment-store.js';

/** The index item's bound (DynamoDB's item limit is 400 KB; processing reads it with every event). */
export const SEGMENT_INDEX_MAX_BYTES = 200_000;

/** Listing shards a backfill walks, one page chain each (keys.ts: contactShards). */
export const BACKFILL_SHARDS = 8;

/**
 * The index after a segment write: every other segment as the index held it, plus `segment` at its new version
 * (absent: the segment `removedId` goes), compiled again whole, conditioned on the index version read.
 */
export function indexWrite(index: StoredSegmentIndex, segmentId: number, segment?: CompiledSegment): IndexWrite {
  const others = index.segments.filter((s) => s.id !== segmentId);
  const segments = (segment ? [...others, segment] : others).sort((a, b) => a.id - b.id);
  const body = compileIndex(segments);
  const bytes = Buffer.byteLength(JSON.stringify(body), 'utf8');
  if (bytes > SEGMENT_INDEX_MAX_BYTES) {
    throw invalidField(
      'max',
      'definition',
      `Your segments together compile to ${bytes} bytes, over the ${SEGMENT_INDEX_MAX_BYTES} the account may hold; make this one or another smaller`,
    );
  }
  return { readVersion: index.version, body };
}

/**
 * What a definition is checked against: the client's topics, the event counters and engagement sources its other
 * segments read, and which of the sources the definition names the client has (`sources`, looked up by the caller).
 */
export function segmentRefsOf(
  index: StoredSegmentIndex,
  topics: TopicSet,
  segmentId?: number,
  sources?: ReadonlySet<string>,
): SegmentRefs {
  const otherSpecIds = new Set<string>();
  const others = index.segments.filter((s) => s.id !== segmentId);
  for (const s of others) for (const id of specIdsOf(s.definition)) otherSpecIds.add(id);
  const otherSources = new Set(engagementSourcesOf(others.map((s) => s.definition)));
  return {
    topicIds: new Set(topics.topics.map((t) => t.id)),
    otherSpecIds,
    otherSources,
    ...(sources ? { sources } : {}),
  };
}

/** 422 with every issue, each at its path in the request body (`definition.groups.0.conditions.1.count`). */
export function assertNoIssues(issues: readonly SegmentIssue[], prefix = 'definition'): void {
  if (issues.length === 0) return;
  throw unprocessable(
    issues.map((i) => ({ condition: i.condition, key: i.path ? `${prefix}.${i.path}` : prefix, error: i.error })),
  );
}
