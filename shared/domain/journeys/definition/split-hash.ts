/**
 * Which arm of a `split` step a run takes: a hash of the run's id and the step's, so a replay of the same transition
 * (a redelivered message, a retry after a crash) takes the same arm, and no arm is stored before it is taken.
 */
import type { StepId } from './types.js';

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a, 32 bits, over the UTF-8 bytes of `text`. */
export function fnv1a32(text: string): number {
  let hash = FNV_OFFSET_BASIS;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash >>> 0;
}

/** Basis points: percentages are compared in hundredths so a percent of 33.33 keeps its share. */
const BUCKETS = 10_000;

/**
 * The index of the arm `runId` takes at `stepId`: `fnv1a32("<runId>:<stepId>") mod 10000` against the cumulative
 * percentages × 100. Percentages summing to less than 100 (validation refuses them) send the remainder to the last arm.
 */
export function splitArmOf(runId: number, stepId: StepId, percents: readonly number[]): number {
  if (percents.length === 0) throw new RangeError('A split needs at least one arm');
  const bucket = fnv1a32(`${runId}:${stepId}`) % BUCKETS;
  let bound = 0;
  for (const [index, percent] of percents.entries()) {
    bound += Math.round(percent * 100);
    if (bucket < bound) return index;
  }
  return percents.length - 1;
}
