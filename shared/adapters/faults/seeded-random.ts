import { randomInt } from 'node:crypto';

/**
 * The fault injector's randomness: mulberry32, a 32-bit seeded PRNG small enough to write here (no dependency), so
 * a failing run is replayed with the seed it printed (`FAULTS_SEED`). Not for anything secret.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The seed of one named stream of a run (`ses`, `sqs`, `dynamo`): each target draws from its own stream, so the
 * SES faults of a replay do not shift when the number of DynamoDB requests changes.
 */
export function streamSeed(seed: number, name: string): number {
  let hash = 0x811c9dc5; // FNV-1a
  for (const char of name) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return (seed ^ hash) >>> 0;
}

/** `FAULTS_SEED` (an integer 0–4294967295) → the seed; absent or blank → a random one, to be printed. */
export function resolveFaultSeed(text: string | number | undefined): number {
  if (typeof text === 'number') return checkedSeed(text, String(text));
  const trimmed = text?.trim();
  if (!trimmed) return randomInt(0, 2 ** 32);
  if (!/^\d+$/.test(trimmed)) throw new RangeError(`Invalid FAULTS_SEED "${text}": expected an integer 0–4294967295`);
  return checkedSeed(Number(trimmed), trimmed);
}

function checkedSeed(seed: number, text: string): number {
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new RangeError(`Invalid FAULTS_SEED "${text}": expected an integer 0–4294967295`);
  }
  return seed;
}
