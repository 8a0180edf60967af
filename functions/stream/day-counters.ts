import { getContainer } from '../../shared/composition/container.js';
import { dayCounters } from '../../shared/composition/providers/day-counters.js';
import { logger } from '../../shared/logger.js';
import type { StreamWindowEvent, StreamWindowResponse } from '../../shared/stream-event.js';

const PORTS = [dayCounters] as const;

/**
 * The table's change stream → the day counters. The mapping's tumbling window names the shard of the batch; the batch
 * is applied with that shard's position, so a batch handed over again (a retry after a timeout, or a crash halfway)
 * counts nothing twice. A failure throws the batch back whole. The window's `state` is not used: each batch is
 * applied at once, but the answer must carry one or Lambda counts the invocation as failed.
 */
export const handler = async (event: StreamWindowEvent): Promise<StreamWindowResponse> => {
  if (!event.shardId) throw new Error('day-counters needs the stream shard of its batch (a tumbling window mapping)');
  const { dayCounters: projection } = getContainer().resolve(PORTS);
  const outcome = await projection.apply(event.shardId, event.Records);
  if (outcome.rows > 0) logger.info('day counters applied', { shardId: event.shardId, ...outcome });
  return { state: {}, batchItemFailures: [] };
};
