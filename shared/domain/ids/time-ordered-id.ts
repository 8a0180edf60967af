import { randomInt } from 'node:crypto';

/**
 * Integer ids for high-volume records (events, executions) that cost no write: milliseconds since 2025-01-01
 * in the high bits and 12 random bits below, so ids grow with time and stay below 2^53 until 2094. The counter
 * item the other entities use would be one more write per event (the ingest budget is one write) and a hot
 * key shared by every client. Two ids in the same millisecond collide with probability 1/4 096: every write of
 * such an id is conditioned on `attribute_not_exists`, and the caller draws again.
 */
const EPOCH_MS = Date.UTC(2025, 0, 1);
const RANDOM_BITS = 4096; // 2^12

export function timeOrderedId(now: Date): number {
  const elapsed = Math.max(0, now.getTime() - EPOCH_MS);
  return elapsed * RANDOM_BITS + randomInt(RANDOM_BITS);
}

/** The instant an id was drawn at (to the millisecond). */
export const instantOfId = (id: number): Date => new Date(EPOCH_MS + Math.floor(id / RANDOM_BITS));

/**
 * Draws ids at `now` that differ from each other: the ids one write names together (an event's executions, its runs)
 * would otherwise collide with probability 1/4 096 a pair, and one transaction or contact update naming an id twice
 * is refused as invalid rather than as a taken id the caller could draw again.
 */
export function distinctIdsAt(now: Date): () => number {
  const drawn = new Set<number>();
  return () => {
    for (;;) {
      const id = timeOrderedId(now);
      if (!drawn.has(id)) {
        drawn.add(id);
        return id;
      }
    }
  };
}
