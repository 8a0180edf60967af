import { notFound } from '../../errors.js';
import type { Clock, Queue } from '../../platform.js';
import type { SettingsStore } from '../settings/settings-store.js';
import type { TopicStore } from '../topics/topic-store.js';
import type { SegmentView } from './schemas-api.js';
import { BACKFILL_SHARDS } from './segment-index.js';
import type { BackfillProgress, SegmentGauge, SegmentRecord, SegmentStore } from './segment-store.js';

/** What the segments API reads and writes. */
export interface SegmentDeps {
  segments: SegmentStore;
  settings: SettingsStore;
  topics: TopicStore;
  queue: Queue;
  clock: Clock;
}

/** The segment as the API shows it: its head, its member count and its backfill's progress at its version. */
export function segmentView(
  segment: SegmentRecord,
  gauge: SegmentGauge | undefined,
  progress: readonly BackfillProgress[],
): SegmentView {
  const current = progress.filter((p) => p.version === segment.backfill.version);
  const done = segment.status === 'ready';
  return {
    id: segment.id,
    name: segment.name,
    description: segment.description ?? null,
    definition: segment.definition as unknown as SegmentView['definition'],
    status: segment.status,
    version: segment.version,
    count: Math.max(0, gauge?.n ?? 0),
    counted_at: gauge?.counted_at ?? null,
    backfill: {
      version: segment.backfill.version,
      scanned: current.reduce((sum, p) => sum + p.scanned, 0),
      shards_done: done ? BACKFILL_SHARDS : current.filter((p) => p.done).length,
      shards: BACKFILL_SHARDS,
      done,
      started_at: segment.backfill.started_at,
      finished_at: segment.backfill.finished_at ?? null,
    },
    created_at: segment.created_at,
    updated_at: segment.updated_at,
  };
}

/** GET /client/segments/{id}: one BatchGetItem (head, gauge, progress). Another client's id: 404. */
export async function getSegment(
  deps: Pick<SegmentDeps, 'segments'>,
  clientId: number,
  id: number,
): Promise<SegmentView> {
  const { segment, gauge, progress } = await deps.segments.get(clientId, id);
  if (!segment) throw notFound('id', 'Segment not found');
  return segmentView(segment, gauge, progress);
}
