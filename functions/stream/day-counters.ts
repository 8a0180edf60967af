import { getContainer } from '../../shared/composition/container.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { dayCounters } from '../../shared/composition/providers/day-counters.js';
import { splitWinnerStore } from '../../shared/composition/providers/split-winner-store.js';
import { decideSplitWinners } from '../../shared/domain/journeys/decide-split-winners.js';
import { logger } from '../../shared/logger.js';
import type { StreamWindowEvent, StreamWindowResponse } from '../../shared/stream-event.js';

const PORTS = [dayCounters, splitWinnerStore, clock] as const;

/**
 * The table's change stream → the day counters. The mapping's tumbling window names the shard of the batch; the batch
 * is applied with that shard's position, so a batch handed over again (a retry after a timeout, or a crash halfway)
 * counts nothing twice. A failure throws the batch back whole. The window's `state` is not used: each batch is
 * applied at once, but the answer must carry one or Lambda counts the invocation as failed.
 *
 * Then each journey whose split arm totals moved gets its due winners decided (one read each; one write for a
 * decision). A failure there throws the batch back too: its counts replay as nothing, the decision is tried again.
 */
export const handler = async (event: StreamWindowEvent): Promise<StreamWindowResponse> => {
  if (!event.shardId) throw new Error('day-counters needs the stream shard of its batch (a tumbling window mapping)');
  const { dayCounters: projection, splitWinners, clock: now } = getContainer().resolve(PORTS);
  const outcome = await projection.apply(event.shardId, event.Records);
  if (outcome.rows > 0) logger.info('day counters applied', { shardId: event.shardId, ...outcome });
  await Promise.all(
    outcome.splitsMoved.map(async ({ clientId, journeyId }) => {
      const decided = await decideSplitWinners({ splitWinners, clock: now }, clientId, journeyId);
      for (const [split, winner] of Object.entries(decided))
        logger.info('split winner decided', { clientId, journeyId, split, ...winner });
    }),
  );
  return { state: {}, batchItemFailures: [] };
};
