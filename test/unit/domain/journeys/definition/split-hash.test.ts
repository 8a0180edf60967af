import { describe, expect, it } from 'vitest';
import { fnv1a32, splitArmOf } from '../../../../../shared/domain/journeys/definition/split-hash.js';

describe('fnv1a32', () => {
  it.each([
    ['', 0x811c9dc5],
    ['a', 0xe40c292c],
    ['foobar', 0xbf9cf968],
  ])('hashes %j as the reference FNV-1a 32-bit value', (text, expected) => {
    expect(fnv1a32(text)).toBe(expected);
  });
});

describe('splitArmOf', () => {
  it('gives a run the same arm every time (a replay takes the same arm)', () => {
    // Prepare
    const percents = [50, 30, 20];

    // Act
    const arms = Array.from({ length: 200 }, (_, i) => splitArmOf(i + 1, 'ab_test', percents));
    const again = Array.from({ length: 200 }, (_, i) => splitArmOf(i + 1, 'ab_test', percents));

    // Assess
    expect(again).toEqual(arms);
  });

  // Buckets computed apart (FNV-1a of "1:split" is 3265766994 → 6994; "2:split" → 2619; "42:ab_test" → 1977;
  // "7:split" → 9020): pinned, so a change of the hash or of its input is seen.
  it.each([
    [1, 'split', [50, 50], 1],
    [1, 'split', [69.95, 30.05], 0],
    [1, 'split', [69.94, 30.06], 1],
    [1, 'split', [30.05, 69.95], 1],
    [2, 'split', [26.19, 73.81], 1],
    [2, 'split', [26.2, 73.8], 0],
    [42, 'ab_test', [20, 30, 50], 0],
    [7, 'split', [20, 30, 40, 10], 3],
    [7, 'split', [20, 30, 41, 9], 2],
  ])('run %i at %s with %j takes arm %i', (runId, stepId, percents, arm) => {
    expect(splitArmOf(runId, stepId, percents)).toBe(arm);
  });

  it('depends on the step: the same run may take another arm at another split', () => {
    // Act
    const differ = Array.from({ length: 100 }, (_, i) => i + 1).filter(
      (id) => splitArmOf(id, 'first', [50, 50]) !== splitArmOf(id, 'second', [50, 50]),
    );

    // Assess
    expect(differ.length).toBeGreaterThan(20);
  });

  it.each([[[50, 50]], [[10, 90]], [[20, 30, 50]], [[33.33, 33.33, 33.34]], [[5, 10, 15, 20, 50]]])(
    'spreads 20 000 runs within 2 points of %j',
    (percents) => {
      // Prepare
      const counts = percents.map(() => 0);

      // Act
      for (let id = 1; id <= 20_000; id++) counts[splitArmOf(id, 'split', percents)]! += 1;

      // Assess
      for (const [index, percent] of percents.entries()) {
        expect(Math.abs((counts[index]! / 20_000) * 100 - percent)).toBeLessThanOrEqual(2);
      }
    },
  );

  it('never takes an arm of 0 %', () => {
    for (let id = 1; id <= 5_000; id++) expect(splitArmOf(id, 's', [0, 100, 0])).toBe(1);
  });
});
