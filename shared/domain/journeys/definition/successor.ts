/**
 * Runs follow a journey's newer versions lazily: nothing is rewritten at publish; at its next transition a run takes
 * the live version, step by step through every version published since its own, as the publishers chose.
 */
import type { JourneyVersionRecord } from '../journey-records.js';
import type { StepId } from './types.js';

export interface RunPlace {
  version: number;
  step_id: StepId;
  pinned?: boolean;
}

export type FollowedPlace = { version: number; step_id: StepId; pinned: boolean } | { ended: 'version_removed' };

/**
 * Where a run stands on the newest of `versions`: the journey's versions after `run.version` up to the live one, in
 * ascending order. A pinned run stays where it is. For each version in turn: a step id the version still has keeps
 * the run on it (in that version); a removed one follows the version's `moves[step_id]`: `finish_old` pins the run to
 * the version it is on and stops there, `move_to` puts it on that step of the version, `end` ends it
 * (`version_removed`). A removed step without a recorded move, or a `move_to` naming a step the version lacks (publish
 * refuses both; older data may hold them), finishes on the old version, the choice that changes nothing.
 */
export function followLiveVersion(
  run: RunPlace,
  versions: readonly Pick<JourneyVersionRecord, 'version' | 'definition' | 'moves'>[],
): FollowedPlace {
  let place = { version: run.version, step_id: run.step_id, pinned: run.pinned ?? false };
  if (place.pinned) return place;
  for (const next of versions) {
    if (next.version <= place.version) continue;
    const has = (id: StepId) => next.definition.steps.some((s) => s.id === id);
    if (has(place.step_id)) {
      place = { ...place, version: next.version };
      continue;
    }
    const move = Object.hasOwn(next.moves, place.step_id) ? next.moves[place.step_id] : undefined;
    if (move?.action === 'end') return { ended: 'version_removed' };
    if (move?.action === 'move_to' && has(move.step_id)) {
      place = { version: next.version, step_id: move.step_id, pinned: false };
      continue;
    }
    return { ...place, pinned: true };
  }
  return place;
}
