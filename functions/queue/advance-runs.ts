import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { journeyTime } from '../../shared/composition/providers/journey-time.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { runStore } from '../../shared/composition/providers/run-store.js';
import { scheduler } from '../../shared/composition/providers/scheduler.js';
import { advanceRun } from '../../shared/domain/runs/advance-run.js';
import { RunMessage } from '../../shared/domain/runs/schemas.js';
import { sqsBatch } from '../../shared/queue/sqs-batch.js';

/**
 * journey queue → one run of a journey moved per message: its current step and every instant step after it, in one
 * transaction conditioned on the message's seq (an old, early or repeated message moves nothing).
 */
export const handler = sqsBatch(
  RunMessage,
  [runStore, contactStore, clock, journeyTime, queue, scheduler],
  async (message, { deps }) => {
    await advanceRun(deps, message);
  },
);
