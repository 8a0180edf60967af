import { getContainer } from '../../shared/composition/container.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { executionStore } from '../../shared/composition/providers/execution-store.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { sweepStuckExecutions } from '../../shared/domain/executions/sweep-executions.js';
import { logger } from '../../shared/logger.js';

/** Every few minutes: executions still claimed (status 2) past their lease go back to the executor to be decided. */
export const handler = async (): Promise<{ enqueued: number; pages: number; stoppedOnBudget: boolean }> => {
  const deps = getContainer().resolve([executionStore, queue, clock]);
  const result = await sweepStuckExecutions({ ...deps, leaseMs: deps.config.EXECUTION_LEASE_SECONDS * 1000 });
  // A metric line the operations issue alarms on: a stuck claim is found by the sweep, not by its own re-dispatch.
  if (result.enqueued > 0)
    logger.warn('stuck executions sent back to the executor', { ...result, metric: 'stuck_executions_swept' });
  return result;
};
