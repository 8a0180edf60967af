import { clock } from '../../shared/composition/providers/clock.js';
import { deliveryStore } from '../../shared/composition/providers/delivery-store.js';
import { executionStore } from '../../shared/composition/providers/execution-store.js';
import { linkSecret } from '../../shared/composition/providers/link-secret.js';
import { mailer } from '../../shared/composition/providers/mailer.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { scheduler } from '../../shared/composition/providers/scheduler.js';
import { senderIdentities } from '../../shared/composition/providers/sender-identities.js';
import { senderSettingsOf } from '../../shared/composition/sender-settings.js';
import { executeWorkflow } from '../../shared/domain/executions/execute-workflow.js';
import { ExecutionMessage } from '../../shared/domain/executions/schemas.js';
import { sqsBatch } from '../../shared/queue/sqs-batch.js';

/**
 * workflow queue → one execution run per message, exactly once (the claim is conditional on the execution's state).
 * SES throttling defers the execution (a new delayed message; this one is acknowledged, so a throttle never counts
 * towards the DLQ); SES saying no otherwise is thrown: SQS delivers the message again after the visibility timeout. A claim found
 * held, or a send whose outcome is unknown, comes back as a delayed message at its lease end (settle-claim.ts).
 */
export const handler = sqsBatch(
  ExecutionMessage,
  [executionStore, deliveryStore, mailer, clock, queue, scheduler, linkSecret, senderIdentities],
  async (message, { deps }) => {
    // Cached by the secret's source; read per message so a rotated value is taken up by a warm container.
    const sender = senderSettingsOf(deps.config, await deps.linkSecret.value());
    await executeWorkflow(
      { ...deps, sender, leaseMs: deps.config.EXECUTION_LEASE_SECONDS * 1000 },
      message.client_id,
      message.execution_id,
    );
  },
);
