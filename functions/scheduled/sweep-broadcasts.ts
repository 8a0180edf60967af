import { getContainer } from '../../shared/composition/container.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { journeyTime } from '../../shared/composition/providers/journey-time.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { recipientStore } from '../../shared/composition/providers/recipient-store.js';
import { sweepBroadcasts } from '../../shared/domain/broadcasts/engine/sweep-broadcasts.js';
import { logger } from '../../shared/logger.js';

/** Every minute: a live broadcast whose chain (start, snapshot shard, pacer, cancel job) went silent gets its message. */
export const handler = async (): Promise<{ resent: number }> => {
  const deps = getContainer().resolve([recipientStore, queue, clock, journeyTime]);
  const result = await sweepBroadcasts(deps);
  // A metric line the operations alarm on: a chain found by the sweep lost the message that should have moved it.
  if (result.resent > 0)
    logger.warn('stuck broadcasts sent their steps again', { ...result, metric: 'stuck_broadcasts_swept' });
  return result;
};
