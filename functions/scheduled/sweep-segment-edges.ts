import { getContainer } from '../../shared/composition/container.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { membershipStore } from '../../shared/composition/providers/membership-store.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { sweepSegmentEdges } from '../../shared/domain/segments/sweep-segment-edges.js';
import { logger } from '../../shared/logger.js';

/** Every 15 minutes: contacts whose time-relative segment conditions may have flipped go to the evaluator. */
export const handler = async (): Promise<{ due: number; messages: number }> => {
  const deps = getContainer().resolve([membershipStore, queue, clock]);
  const result = await sweepSegmentEdges(deps);
  if (result.due > 0) logger.info('segment edges due sent to evaluation', { ...result });
  return result;
};
