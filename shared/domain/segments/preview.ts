import { SEGMENT_LIMITS } from '../../public/segment-rules.js';
import { segmentHolds } from './definition/evaluate.js';
import { engagementSourcesOf } from './definition/specs.js';
import { namedSourcesOf, validateSegment } from './definition/validate-segment.js';
import type { SegmentDeps } from './get.js';
import type { SegmentPreviewBody, SegmentPreviewView } from './schemas-api.js';
import { assertNoIssues, segmentRefsOf } from './segment-index.js';

/**
 * POST /client/segments/preview: how many contacts a definition holds for, without saving it. Reads up to 5,000
 * contacts spread over the 8 listing shards (each shard's lowest ids; ≈ 625 a shard, one Query wave, eventual) and,
 * when the definition counts events, their counters (BatchGetItem of 100 keys, in parallel), with the index and the
 * topics in the first wave. Every contact read: exact. Beyond: the count and share of the contacts read (a sample
 * weighted to older contacts, said in the answer). Event counts read the counters kept for the client's saved
 * segments: an event counter no saved segment keeps yet reads as no events. Engagement with a named journey or
 * broadcast reads each sampled contact's item of it (BatchGetItem, with the counters).
 */
export async function previewSegment(
  deps: Pick<SegmentDeps, 'segments' | 'topics' | 'clock'>,
  clientId: number,
  body: SegmentPreviewBody,
): Promise<SegmentPreviewView> {
  const [read, topics, existing] = await Promise.all([
    deps.segments.readForWrite(clientId),
    deps.topics.load(clientId),
    deps.segments.existingSources(clientId, namedSourcesOf(body.definition)),
  ]);
  const { definition, issues } = validateSegment(
    body.definition,
    segmentRefsOf(read.index, topics, undefined, existing),
  );
  assertNoIssues(issues);
  const countsEvents = definition!.groups.some((g) => g.conditions.some((c) => c.on === 'event_count'));
  const sources = engagementSourcesOf([definition!]);
  const sample = await deps.segments.previewSample(clientId, SEGMENT_LIMITS.previewContacts, countsEvents, sources);
  const now = deps.clock.now();
  const count = sample.contacts.filter(({ contact, counters, engagement }) =>
    segmentHolds(
      definition!,
      { contact, ...(counters ? { counters } : {}), ...(engagement ? { engagement } : {}), topics },
      now,
    ),
  ).length;
  const sampled = sample.contacts.length;
  return { count, sampled, exact: sample.complete, share: sampled === 0 ? 0 : count / sampled };
}
