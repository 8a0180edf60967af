import type { SegmentIndex } from '../segments/membership-store.js';

/**
 * Whether a contact is in each of `segmentIds`, from its SEGSTATE members (absent: never evaluated, in none) and the
 * client's segment index: a segment the index no longer holds (deleted) is no one's, even before the delete's purge
 * has taken its members out.
 */
export function membershipOf(
  members: Readonly<Record<number, number>> | undefined,
  index: Pick<SegmentIndex, 'segments'> | undefined,
  segmentIds: readonly number[],
): Record<number, boolean> {
  const live = new Set((index?.segments ?? []).map((s) => s.id));
  const out: Record<number, boolean> = {};
  for (const id of segmentIds) out[id] = live.has(id) && members?.[id] !== undefined;
  return out;
}
