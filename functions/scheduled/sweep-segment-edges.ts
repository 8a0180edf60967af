import { getContainer } from '../../shared/composition/container.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { membershipStore } from '../../shared/composition/providers/membership-store.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { segmentStore } from '../../shared/composition/providers/segment-store.js';
import { restartStaleBackfills } from '../../shared/domain/segments/backfill-segment.js';
import { sweepSegmentEdges } from '../../shared/domain/segments/sweep-segment-edges.js';
import { logger } from '../../shared/logger.js';

/**
 * Every 15 minutes: contacts whose time-relative segment conditions may have flipped go to the evaluator, and
 * segment backfills whose page chain went quiet (a page's next message lost to a crash) are sent on from their
 * progress.
 */
export const handler = async (): Promise<{ due: number; messages: number; restarted: number }> => {
  const deps = getContainer().resolve([membershipStore, segmentStore, queue, clock]);
  const result = await sweepSegmentEdges(deps);
  if (result.due > 0) logger.info('segment edges due sent to evaluation', { ...result });
  const { restarted } = await restartStaleBackfills(deps);
  if (restarted > 0) logger.info('quiet segment backfills restarted', { restarted });
  return { ...result, restarted };
};
