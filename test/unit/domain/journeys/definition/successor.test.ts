import { describe, expect, it } from 'vitest';
import type { StepMove } from '../../../../../shared/domain/journeys/journey-records.js';
import {
  followLiveVersion,
  type FollowedPlace,
  type RunPlace,
} from '../../../../../shared/domain/journeys/definition/successor.js';
import { journeyOf } from './journey-fixtures.js';

/** A version holding exit steps of these ids, with these moves. */
const version = (v: number, ids: string[], moves: Record<string, StepMove> = {}) => ({
  version: v,
  definition: journeyOf(ids.map((id) => ({ id, type: 'exit' as const }))),
  moves,
});

const v2 = version(2, ['a', 'b', 'c']);
const v3DropsB = (move?: StepMove) => version(3, ['a', 'c', 'd'], move ? { b: move } : {});
const v4 = version(4, ['a', 'c', 'd', 'e'], { x: { action: 'end' } });
const v5DropsD = version(5, ['a', 'c', 'e'], { d: { action: 'move_to', step_id: 'e' } });

describe('followLiveVersion', () => {
  it.each<[string, RunPlace, ReturnType<typeof version>[], FollowedPlace]>([
    ['no newer version: unchanged', { version: 2, step_id: 'b' }, [], { version: 2, step_id: 'b', pinned: false }],
    [
      'a pinned run stays, whatever comes',
      { version: 2, step_id: 'b', pinned: true },
      [v3DropsB({ action: 'end' })],
      { version: 2, step_id: 'b', pinned: true },
    ],
    [
      'a step kept: same id on the next version',
      { version: 2, step_id: 'a' },
      [v3DropsB()],
      { version: 3, step_id: 'a', pinned: false },
    ],
    [
      'a step kept over several skipped versions: the live one',
      { version: 2, step_id: 'c' },
      [v3DropsB(), v4, v5DropsD],
      { version: 5, step_id: 'c', pinned: false },
    ],
    [
      'removed, finish_old: pinned to its version',
      { version: 2, step_id: 'b' },
      [v3DropsB({ action: 'finish_old' }), v4],
      { version: 2, step_id: 'b', pinned: true },
    ],
    [
      'removed, no move recorded: finish_old',
      { version: 2, step_id: 'b' },
      [v3DropsB(), v4],
      { version: 2, step_id: 'b', pinned: true },
    ],
    [
      'removed, move_to: that step of that version, then on',
      { version: 2, step_id: 'b' },
      [v3DropsB({ action: 'move_to', step_id: 'd' }), v4],
      { version: 4, step_id: 'd', pinned: false },
    ],
    [
      'moves applied in order over skipped versions',
      { version: 2, step_id: 'b' },
      [v3DropsB({ action: 'move_to', step_id: 'd' }), v4, v5DropsD],
      { version: 5, step_id: 'e', pinned: false },
    ],
    [
      'removed, end: the run ends',
      { version: 2, step_id: 'b' },
      [v3DropsB({ action: 'end' }), v4],
      { ended: 'version_removed' },
    ],
    [
      'a later version removing the moved-to step ends it',
      { version: 3, step_id: 'd' },
      [v4, version(5, ['a'], { d: { action: 'end' } })],
      { ended: 'version_removed' },
    ],
    [
      'finish_old after following a version: pinned to the one it reached',
      { version: 3, step_id: 'd' },
      [v4, version(5, ['a'], { d: { action: 'finish_old' } })],
      { version: 4, step_id: 'd', pinned: true },
    ],
    [
      'move_to a step the version lacks: finish_old',
      { version: 2, step_id: 'b' },
      [v3DropsB({ action: 'move_to', step_id: 'zz' })],
      { version: 2, step_id: 'b', pinned: true },
    ],
    [
      'versions at or before its own are passed over',
      { version: 3, step_id: 'd' },
      [v2, v4],
      { version: 4, step_id: 'd', pinned: false },
    ],
  ])('%s', (_name, run, versions, expected) => {
    // Act
    const followed = followLiveVersion(run, versions);

    // Assess
    expect(followed).toEqual(expected);
  });

  it('reads only own moves (a step named like an Object member is not moved)', () => {
    // Prepare
    const v3 = version(3, ['a']);

    // Act / Assess
    expect(followLiveVersion({ version: 2, step_id: 'constructor' }, [v3])).toEqual({
      version: 2,
      step_id: 'constructor',
      pinned: true,
    });
  });
});
