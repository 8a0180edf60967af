import { describe, expect, it } from 'vitest';
import { FaultDice } from '../../../../shared/adapters/faults/fault-dice.js';
import { seededRandom } from '../../../../shared/adapters/faults/seeded-random.js';

const drawMany = <K extends string>(dice: FaultDice<K>, n: number) => Array.from({ length: n }, () => dice.draw());

describe('FaultDice', () => {
  it('never picks a rule of rate 0', () => {
    // Prepare
    const dice = new FaultDice([{ kind: 'throttle', rate: 0 }], seededRandom(1));
    // Act
    const draws = drawMany(dice, 1000);
    // Assess
    expect(draws.every((d) => d === undefined)).toBe(true);
  });

  it('always picks a rule of rate 1', () => {
    // Prepare
    const dice = new FaultDice([{ kind: 'throttle', rate: 1 }], seededRandom(1));
    // Act
    const draws = drawMany(dice, 1000);
    // Assess
    expect(draws.every((d) => d === 'throttle')).toBe(true);
  });

  it('shares one draw between the rules in the order written', () => {
    // Prepare: the draws are scripted, so each rule's slice of [0, 1) shows.
    const points = [0.05, 0.15, 0.25, 0.35];
    const dice = new FaultDice(
      [
        { kind: 'a', rate: 0.1 },
        { kind: 'b', rate: 0.2 },
      ],
      () => points.shift() ?? 0.99,
    );
    // Act
    const draws = drawMany(dice, 4);
    // Assess
    expect(draws).toEqual(['a', 'b', 'b', undefined]);
  });

  it('picks about `rate` of the calls', () => {
    // Prepare
    const dice = new FaultDice([{ kind: 'throttle', rate: 0.2 }], seededRandom(5));
    // Act
    const picked = drawMany(dice, 10_000).filter(Boolean).length;
    // Assess
    expect(picked).toBeGreaterThan(1800);
    expect(picked).toBeLessThan(2200);
  });

  it('picks the same calls again for the same seed', () => {
    // Prepare
    const rules = [{ kind: 'throttle', rate: 0.3 }];
    // Act
    const first = drawMany(new FaultDice(rules, seededRandom(99)), 200);
    const replay = drawMany(new FaultDice(rules, seededRandom(99)), 200);
    // Assess
    expect(replay).toEqual(first);
  });

  it('counts the calls it saw and the faults recorded, by kind', () => {
    // Prepare
    const dice = new FaultDice(
      [
        { kind: 'throttle', rate: 0.5 },
        { kind: 'reset', rate: 0.5 },
      ],
      seededRandom(3),
    );
    // Act
    drawMany(dice, 3);
    dice.record('reset');
    dice.record('reset');
    // Assess
    expect(dice.counts()).toEqual({ calls: 3, injected: { throttle: 0, reset: 2 }, total: 2 });
  });
});
