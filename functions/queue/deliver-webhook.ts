import * as z from '../../shared/validation/zod.js';
import { clientNotices } from '../../shared/composition/providers/client-notices.js';
import { clientStore } from '../../shared/composition/providers/client-store.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { scheduler } from '../../shared/composition/providers/scheduler.js';
import { webhookOutbox } from '../../shared/composition/providers/webhook-outbox.js';
import { webhookSender } from '../../shared/composition/providers/webhook-sender.js';
import { webhookStore } from '../../shared/composition/providers/webhook-store.js';
import { deliverWebhook } from '../../shared/domain/webhooks/deliver-webhook.js';
import type { WebhookDeliveryMessage } from '../../shared/ports.js';
import { logger } from '../../shared/logger.js';
import { sqsBatch } from '../../shared/queue/sqs-batch.js';

const DeliveryBody = z.object({
  client_id: z.int().check(z.positive()),
  webhook_id: z.int().check(z.positive()),
  message_id: z.string().check(z.regex(/^msg_[0-9a-f]{32}$/)),
  attempt: z.int().check(z.gte(1)),
  replay: z.optional(z.boolean()),
}) satisfies z.ZodMiniType<WebhookDeliveryMessage>;

/**
 * webhooks queue → one attempt per message (issue 22 §3): records of a batch run in parallel, so one endpoint's 10 s
 * timeout does not hold another's delivery back. An endpoint's failure is not the message's: it is logged as an
 * attempt and the next one queued, and the message is acknowledged. Only a store or queue failure is thrown
 * (SQS delivers the message again, the DLQ after 5).
 */
export const handler = sqsBatch(
  DeliveryBody,
  [webhookStore, webhookOutbox, webhookSender, queue, scheduler, clientStore, clientNotices, clock],
  async (message, { deps }) => {
    const retrySchedule = deps.config.WEBHOOK_RETRY_SCHEDULE_SECONDS;
    const outcome = await deliverWebhook({ ...deps, ...(retrySchedule ? { retrySchedule } : {}) }, message);
    if (outcome.kind === 'dropped') {
      logger.info('webhook delivery dropped', { client_id: message.client_id, webhook_id: message.webhook_id, reason: outcome.reason });
    } else if (outcome.kind === 'failed') {
      logger.warn('webhook message failed every attempt', {
        client_id: message.client_id,
        webhook_id: message.webhook_id,
        message_id: message.message_id,
        disabled: outcome.disabled,
        metric: 'webhook_message_failed',
      });
    }
  },
);
