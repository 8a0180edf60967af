import { describe, expect, it } from 'vitest';
import { resolveFaultSeed, seededRandom, streamSeed } from '../../../../shared/adapters/faults/seeded-random.js';

const take = (random: () => number, n: number) => Array.from({ length: n }, () => random());

describe('seededRandom', () => {
  it('repeats the same sequence for the same seed', () => {
    // Act
    const first = take(seededRandom(42), 20);
    const again = take(seededRandom(42), 20);
    // Assess
    expect(again).toEqual(first);
  });

  it('gives another sequence for another seed', () => {
    // Act
    const a = take(seededRandom(42), 5);
    const b = take(seededRandom(43), 5);
    // Assess
    expect(b).not.toEqual(a);
  });

  it('draws in [0, 1), spread evenly enough for rates', () => {
    // Act
    const draws = take(seededRandom(7), 10_000);
    // Assess
    expect(draws.every((x) => x >= 0 && x < 1)).toBe(true);
    const below = draws.filter((x) => x < 0.05).length;
    expect(below).toBeGreaterThan(400);
    expect(below).toBeLessThan(600);
  });
});

describe('streamSeed', () => {
  it('gives each target its own stream of one run, the same in every replay', () => {
    // Act
    const ses = streamSeed(1234, 'ses');
    const dynamo = streamSeed(1234, 'dynamo');
    // Assess
    expect(ses).not.toBe(dynamo);
    expect(streamSeed(1234, 'ses')).toBe(ses);
    expect(ses).toBeGreaterThanOrEqual(0);
    expect(ses).toBeLessThanOrEqual(0xffffffff);
  });
});

describe('resolveFaultSeed', () => {
  it.each([
    { text: '0', seed: 0 },
    { text: ' 1234 ', seed: 1234 },
    { text: '4294967295', seed: 4294967295 },
    { text: 99, seed: 99 },
  ])('reads FAULTS_SEED $text as $seed', ({ text, seed }) => {
    // Act
    const resolved = resolveFaultSeed(text);
    // Assess
    expect(resolved).toBe(seed);
  });

  it.each([undefined, '', '  '])('picks a random 32-bit seed when FAULTS_SEED is %j', (text) => {
    // Act
    const seeds = new Set(Array.from({ length: 5 }, () => resolveFaultSeed(text)));
    // Assess
    expect(seeds.size).toBeGreaterThan(1);
    for (const seed of seeds) expect(Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff).toBe(true);
  });

  it.each(['abc', '-1', '1.5', '4294967296', 1.5, -1])('refuses FAULTS_SEED %j', (text) => {
    // Act
    const act = () => resolveFaultSeed(text);
    // Assess
    expect(act).toThrow(/^Invalid FAULTS_SEED ".*": expected an integer 0–4294967295$/);
  });
});
