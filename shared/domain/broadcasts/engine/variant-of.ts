import { fnv1a32 } from '../../journeys/definition/split-hash.js';

/** Basis points of the audience, as the journeys' split hashes them. */
const BUCKETS = 10_000;

/**
 * The variant (0-based) a contact gets of a broadcast with `variants` contents: `fnv1a32("<bid>:<contact>") mod
 * 10000` cut into equal shares, so a page redone after a crash, or the same contact met twice, always draws the same
 * variant and nothing about the draw is stored before the recipient is.
 */
export function variantOf(broadcastId: number, contactId: number, variants: number): number {
  if (!Number.isInteger(variants) || variants < 1) throw new RangeError('A broadcast has at least one variant');
  if (variants === 1) return 0;
  const bucket = fnv1a32(`${broadcastId}:${contactId}`) % BUCKETS;
  return Math.min(variants - 1, Math.floor((bucket * variants) / BUCKETS));
}
