import { clock } from '../../shared/composition/providers/clock.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { journeyTime } from '../../shared/composition/providers/journey-time.js';
import { paceStore } from '../../shared/composition/providers/pace-store.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { recipientStore } from '../../shared/composition/providers/recipient-store.js';
import { scheduler } from '../../shared/composition/providers/scheduler.js';
import { BroadcastMessage } from '../../shared/domain/broadcasts/engine/broadcast-message.js';
import { runBroadcastStep } from '../../shared/domain/broadcasts/engine/run-broadcast-step.js';
import { sqsBatch } from '../../shared/queue/sqs-batch.js';

/**
 * broadcast queue → one step of one broadcast's engine a message: its start, a page of its audience's snapshot, a
 * pass of its pacer (recipients released to the workflow queue at the pace), or a page of its cancel job. Every step
 * is conditioned on what it read, so a redelivered or duplicate message writes nothing twice.
 */
export const handler = sqsBatch(
  BroadcastMessage,
  [recipientStore, paceStore, ids, clock, queue, scheduler, journeyTime],
  async (message, { deps }) => {
    await runBroadcastStep(
      { ...deps, accountRate: deps.config.SES_MAX_SEND_RATE * deps.config.BROADCAST_SHARE },
      message,
    );
  },
);
