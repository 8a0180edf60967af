import { MAX_SEGMENTS_BY_TIER } from '../../public/segment-rules.js';
import { planOf } from '../settings/effective-settings.js';
import { quotaMonthOf } from '../settings/quota-period.js';
import type { SettingsBundle } from '../settings/settings-store.js';
import type { SegmentDeps } from './get.js';
import type { SegmentListItem } from './schemas-api.js';

/** Segments the client's plan allows. */
export const maxSegmentsOf = (bundle: SettingsBundle): number =>
  MAX_SEGMENTS_BY_TIER[planOf(bundle.client?.plan ?? '').tier];

/**
 * GET /client/segments: every segment by id with its member count. Reads in one wave the settings bundle (plan) and
 * the count item (every summary), then one BatchGetItem of the gauges.
 */
export async function listSegments(
  deps: Pick<SegmentDeps, 'segments' | 'settings' | 'clock'>,
  clientId: number,
): Promise<{ segments: SegmentListItem[]; meta: { total: number; max_segments: number } }> {
  const [bundle, { count, gauges }] = await Promise.all([
    deps.settings.load(clientId, quotaMonthOf(deps.clock.now())),
    deps.segments.list(clientId),
  ]);
  const segments = (count?.segments ?? []).map((s) => {
    const gauge = gauges.get(s.id);
    return {
      id: s.id,
      name: s.name,
      description: s.description ?? null,
      status: s.status,
      version: s.version,
      count: Math.max(0, gauge?.n ?? 0),
      counted_at: gauge?.counted_at ?? null,
      updated_at: s.updated_at,
    };
  });
  return { segments, meta: { total: segments.length, max_segments: maxSegmentsOf(bundle) } };
}
