import { SEGMENT_LIMITS } from '../../public/segment-rules.js';
import { segmentHolds } from './definition/evaluate.js';
import { validateSegment } from './definition/validate-segment.js';
import type { SegmentDeps } from './get.js';
import type { SegmentPreviewBody, SegmentPreviewView } from './schemas-api.js';
import { assertNoIssues, segmentRefsOf } from './segment-index.js';

/**
 * POST /client/segments/preview: how many contacts a definition holds for, without saving it. Reads up to 5,000
 * contacts spread over the 8 listing shards (each shard's lowest ids; ≈ 625 a shard, one Query wave, eventual) and,
 * when the definition counts events, their counters (BatchGetItem of 100 keys, in parallel), with the index and the
 * topics in the first wave. Every contact read: exact. Beyond: the count and share of the contacts read (a sample
 * weighted to older contacts, said in the answer). Event counts read the counters kept for the client's saved
 * segments: an event counter no saved segment keeps yet reads as no events.
 */
export async function previewSegment(
  deps: Pick<SegmentDeps, 'segments' | 'topics' | 'clock'>,
  clientId: number,
  body: SegmentPreviewBody,
): Promise<SegmentPreviewView> {
  const [read, topics] = await Promise.all([deps.segments.readForWrite(clientId), deps.topics.load(clientId)]);
  const { definition, issues } = validateSegment(body.definition, segmentRefsOf(read.index, topics));
  assertNoIssues(issues);
  const countsEvents = definition!.groups.some((g) => g.conditions.some((c) => c.on === 'event_count'));
  const sample = await deps.segments.previewSample(clientId, SEGMENT_LIMITS.previewContacts, countsEvents);
  const now = deps.clock.now();
  const count = sample.contacts.filter(({ contact, counters }) =>
    segmentHolds(definition!, { contact, ...(counters ? { counters } : {}), topics }, now),
  ).length;
  const sampled = sample.contacts.length;
  return { count, sampled, exact: sample.complete, share: sampled === 0 ? 0 : count / sampled };
}
