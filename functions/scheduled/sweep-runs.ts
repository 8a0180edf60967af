import { getContainer } from '../../shared/composition/container.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { runStore } from '../../shared/composition/providers/run-store.js';
import { sweepStuckRuns } from '../../shared/domain/runs/sweep-runs.js';
import { logger } from '../../shared/logger.js';

/** Every few minutes: runs due more than 2 minutes ago whose message never came are sent their current seq. */
export const handler = async (): Promise<{ enqueued: number; pages: number; stoppedOnBudget: boolean }> => {
  const deps = getContainer().resolve([runStore, queue, clock]);
  const result = await sweepStuckRuns(deps);
  // A metric line the operations alarm on: a run found by the sweep lost the message that should have moved it.
  if (result.enqueued > 0)
    logger.warn('stuck runs sent back to advance-runs', { ...result, metric: 'stuck_runs_swept' });
  return result;
};
