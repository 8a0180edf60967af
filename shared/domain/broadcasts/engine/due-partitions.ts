import type { EngineBroadcast } from '../recipient-store.js';

/**
 * A recipient's due partition: `id mod S`; an A/B test's holdout in `S + id mod S`, a partition of its own the pacer
 * does not read until the winner is chosen (so no holdout goes out before it, however the pacer is restarted).
 */
export const duePartitionOf = (executionId: number, partitions: number, holdout: boolean): number => {
  const s = Math.max(1, partitions);
  return (holdout ? s : 0) + (executionId % s);
};

/** The partitions the pacer releases from: the S of the audience, and the holdouts' S more once a winner is chosen. */
export const releasedPartitionsOf = (head: Pick<EngineBroadcast, 'shards' | 'definition' | 'winner'>): number => {
  const s = head.shards ?? 1;
  return head.definition.ab !== undefined && head.winner !== undefined ? 2 * s : s;
};

/** Every partition a recipient may wait in: the holdouts' too when the broadcast is an A/B test. */
export const allPartitionsOf = (head: Pick<EngineBroadcast, 'shards' | 'definition'>): number => {
  const s = head.shards ?? 1;
  return head.definition.ab !== undefined ? 2 * s : s;
};
