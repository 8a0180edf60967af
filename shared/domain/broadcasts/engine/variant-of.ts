import { fnv1a32 } from '../../journeys/definition/split-hash.js';

/** Basis points of the audience, as the journeys' split hashes them. */
const BUCKETS = 10_000;

const bucketOf = (broadcastId: number, contactId: number): number => fnv1a32(`${broadcastId}:${contactId}`) % BUCKETS;

/**
 * The variant (0-based) a contact gets of a broadcast with `variants` contents: `fnv1a32("<bid>:<contact>") mod
 * 10000` cut into equal shares, so a page redone after a crash, or the same contact met twice, always draws the same
 * variant and nothing about the draw is stored before the recipient is.
 */
export function variantOf(broadcastId: number, contactId: number, variants: number): number {
  if (!Number.isInteger(variants) || variants < 1) throw new RangeError('A broadcast has at least one variant');
  if (variants === 1) return 0;
  return Math.min(variants - 1, Math.floor((bucketOf(broadcastId, contactId) * variants) / BUCKETS));
}

/** Where a recipient of an A/B test stands: in the test share with its variant, or held out for the winner. */
export type Placement = { variant: number } | { holdout: true };

/**
 * A contact's place in a broadcast of `variants` contents tested on `testPercent` % of its audience: the same hash as
 * `variantOf`; buckets below the test share are cut into equal shares of the variants, the rest are held out until a
 * winner is chosen. Without a test (one variant, or no `ab`) every contact gets its `variantOf`.
 */
export function placementOf(
  broadcastId: number,
  contactId: number,
  variants: number,
  testPercent: number | undefined,
): Placement {
  if (testPercent === undefined || variants === 1) return { variant: variantOf(broadcastId, contactId, variants) };
  if (!(testPercent > 0 && testPercent <= 100)) throw new RangeError('A test share is a percentage above 0');
  const test = Math.round(testPercent * (BUCKETS / 100));
  const bucket = bucketOf(broadcastId, contactId);
  if (bucket >= test) return { holdout: true };
  return { variant: Math.min(variants - 1, Math.floor((bucket * variants) / test)) };
}
